import * as Effect from "effect/Effect"
import { questionOf } from "../access/DocumentAccess.js"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { Presence } from "./Presence.js"
import { ClientPresenceInput, ClientPresenceResult, PresenceDeleteInput, PresenceResult, PresenceWriteInput } from "./PresenceSchemas.js"

/** A presence call's answer: `{ success: true }` once its writes are done (the service returns nothing). */
const done = (message: string) => answer(message)({ success: true } as const)

export const presenceOperations = [
  defineOperation({
    name: "presence.add",
    paths: ["/v2/presence/add"],
    auth: "apiKey",
    summary: "Put users on a document's presence list, with their status.",
    input: PresenceWriteInput,
    output: PresenceResult,
    organization: (input) => input.organizationId,
    service: Presence,
    handler: (presence, input, caller) => Effect.as(presence.add(caller.apiKey, input), done("Presence added successfully."))
  }),
  defineOperation({
    name: "presence.update",
    paths: ["/v2/presence/update"],
    auth: "apiKey",
    summary: "Change the name, email or status of users on a document's presence list.",
    input: PresenceWriteInput,
    output: PresenceResult,
    organization: (input) => input.organizationId,
    service: Presence,
    handler: (presence, input, caller) => Effect.as(presence.update(caller.apiKey, input), done("Presence updated successfully."))
  }),
  defineOperation({
    name: "presence.delete",
    paths: ["/v2/presence/delete"],
    auth: "apiKey",
    summary: "Remove users from a document's presence list.",
    input: PresenceDeleteInput,
    output: PresenceResult,
    organization: (input) => input.organizationId,
    service: Presence,
    handler: (presence, input, caller) => Effect.as(presence.delete(caller.apiKey, input), done("Presence deleted successfully."))
  }),
  defineOperation({
    name: "client.presence.get",
    paths: ["/v2/client/presence/get"],
    auth: "user",
    summary: "The users present on a document now (the acting user must be able to read it).",
    input: ClientPresenceInput,
    output: ClientPresenceResult,
    errors: ["PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: Presence,
    handler: (presence, input, caller) =>
      Effect.map(
        presence.present(questionOf(caller, input.organizationId, input.documentId)),
        answer("Presence retrieved successfully.")
      )
  })
] as const
