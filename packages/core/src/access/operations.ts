import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import {
  AddPermissionsInput,
  GenerateSignatureInput,
  GenerateSignatureResult,
  GetPermissionsInput,
  GetPermissionsResult,
  MessageResult,
  RemovePermissionsInput
} from "./AccessSchemas.js"
import { Permissions } from "./Permissions.js"

/** The facts' answer without `data`. */
const said = (message: string) => ({ status: "success" as const, message })

export const accessOperations = [
  defineOperation({
    name: "auth.permissions.add",
    paths: ["/v2/auth/permissions/add"],
    auth: "apiKey",
    summary: "Grant a user viewer or editor on organizations, folders and documents, optionally until expiresAt; replaces the grant at the same place.",
    input: AddPermissionsInput,
    output: MessageResult,
    // Each resource names its organization: the service refuses the call while one is disabled.
    errors: ["PERMISSION_DENIED"],
    service: Permissions,
    handler: (permissions, input, caller) => Effect.as(permissions.add(caller.apiKey, input), said("Permissions added successfully."))
  }),
  defineOperation({
    name: "auth.permissions.get",
    paths: ["/v2/auth/permissions/get"],
    auth: "apiKey",
    summary: "What the access rule decides for each user on the organization and the folders and documents asked.",
    input: GetPermissionsInput,
    output: GetPermissionsResult,
    errors: ["NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: Permissions,
    handler: (permissions, input, caller) => Effect.map(permissions.get(caller.apiKey, input), answer("User permissions retrieved successfully."))
  }),
  defineOperation({
    name: "auth.permissions.remove",
    paths: ["/v2/auth/permissions/remove"],
    auth: "apiKey",
    summary: "Remove a user's stored grants on organizations, folders and documents.",
    input: RemovePermissionsInput,
    output: MessageResult,
    // Each resource names its organization: the service refuses the call while one is disabled.
    errors: ["PERMISSION_DENIED"],
    service: Permissions,
    handler: (permissions, input, caller) => Effect.as(permissions.remove(caller.apiKey, input), said("Permissions removed successfully."))
  }),
  defineOperation({
    name: "auth.generate_signature",
    paths: ["/v2/auth/generate_signature"],
    auth: "apiKey",
    summary: "Sign a permission provider's answer (HMAC-SHA256, hex) with this API key's own key.",
    input: GenerateSignatureInput,
    output: GenerateSignatureResult,
    service: Permissions,
    handler: (permissions, input, caller) => Effect.map(permissions.generateSignature(caller.apiKey, input), answer("Signature generated successfully."))
  })
] as const
