import * as Effect from "effect/Effect"
import { answer, answerPage } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { NoParameters } from "../schema/Common.js"
import {
  ApiKeyInput,
  AuthTokensResult,
  CreateApiKeyInput,
  CreateApiKeyResult,
  CreateWorkspaceInput,
  ListApiKeysInput,
  ListApiKeysResult,
  NullResult,
  ResetAuthTokenResult,
  UpdateApiKeyInput,
  WorkspaceResult
} from "./WorkspaceSchemas.js"
import { Workspaces } from "./Workspaces.js"

export const workspaceOperations = [
  defineOperation({
    name: "workspace.create",
    paths: ["/v2/workspace/create"],
    auth: "public",
    summary: "Create a workspace with one testing API key. Its secrets are in this answer only.",
    input: CreateWorkspaceInput,
    output: WorkspaceResult,
    errors: ["INVALID_ARGUMENT", "ALREADY_EXISTS", "RESOURCE_EXHAUSTED", "PERMISSION_DENIED"],
    service: Workspaces,
    handler: (workspaces, input, caller) =>
      Effect.map(workspaces.create(input, caller.ip), answer("Workspace created successfully"))
  }),
  defineOperation({
    name: "workspace.get",
    paths: ["/v2/workspace/get"],
    auth: "workspace",
    summary: "Read the workspace and its API keys.",
    input: NoParameters,
    output: WorkspaceResult,
    errors: ["NOT_FOUND"],
    service: Workspaces,
    handler: (workspaces, _, caller) =>
      Effect.map(workspaces.get(caller.workspaceId), answer("Workspace retrieved successfully."))
  }),
  defineOperation({
    name: "workspace.apikey.create",
    paths: ["/v2/workspace/apikey/create"],
    auth: "workspace",
    summary: "Create an API key (with an auth token unless createAuthToken is false).",
    input: CreateApiKeyInput,
    output: CreateApiKeyResult,
    service: Workspaces,
    handler: (workspaces, input, caller) =>
      Effect.map(workspaces.createApiKey(caller.workspaceId, input), answer("API key created successfully."))
  }),
  defineOperation({
    name: "workspace.apikeys.get",
    paths: ["/v2/workspace/apikeys/get"],
    auth: "workspace",
    summary: "List the workspace's API keys, a page at a time.",
    input: ListApiKeysInput,
    output: ListApiKeysResult,
    errors: ["INVALID_ARGUMENT"],
    service: Workspaces,
    handler: (workspaces, input, caller) =>
      Effect.map(workspaces.listApiKeys(caller.workspaceId, input), answerPage("API keys retrieved successfully.", "nextPageToken"))
  }),
  defineOperation({
    name: "workspace.apikey.update",
    paths: ["/v2/workspace/apikey/update"],
    auth: "workspace",
    summary: "Rename an API key.",
    input: UpdateApiKeyInput,
    output: NullResult,
    errors: ["NOT_FOUND"],
    service: Workspaces,
    handler: (workspaces, input, caller) =>
      Effect.as(workspaces.updateApiKey(caller.workspaceId, input), answer("API key updated successfully.")(null))
  }),
  defineOperation({
    name: "workspace.authtokens.get",
    paths: ["/v2/workspace/authtokens/get"],
    auth: "workspace",
    summary: "List an API key's auth tokens (masked: only a hash is stored).",
    input: ApiKeyInput,
    output: AuthTokensResult,
    errors: ["NOT_FOUND"],
    service: Workspaces,
    handler: (workspaces, input, caller) =>
      Effect.map(workspaces.getAuthTokens(caller.workspaceId, input.apiKey), answer("Auth tokens retrieved successfully."))
  }),
  defineOperation({
    name: "workspace.authtoken.reset",
    paths: ["/v2/workspace/authtoken/reset"],
    auth: "workspace",
    summary: "Replace an API key's auth tokens with a new one, shown in this answer only.",
    input: ApiKeyInput,
    output: ResetAuthTokenResult,
    errors: ["NOT_FOUND"],
    service: Workspaces,
    handler: (workspaces, input, caller) =>
      Effect.map(workspaces.resetAuthToken(caller.workspaceId, input.apiKey), answer("Auth token reset successfully."))
  })
] as const
