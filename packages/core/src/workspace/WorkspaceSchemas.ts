import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { Email, List, NonEmptyText, optional, PageSize } from "../schema/Common.js"

const Url = Schema.String.pipe(
  Schema.maxLength(2000, { message: () => "must be at most 2000 characters" }),
  Schema.filter((value) => URL.canParse(value) || "must be a valid URL")
)

export const CreateWorkspaceInput = Schema.Struct({
  ownerEmail: Email,
  name: optional(NonEmptyText(200)),
  workspaceName: optional(NonEmptyText(200)),
  avatar: optional(Url)
})

export const ApiKeyType = Schema.Literal("testing", "production")

const ApiKeyEntry = Schema.Struct({
  id: Schema.String,
  apiKeyName: Schema.String,
  type: ApiKeyType,
  /** Shown once, when the workspace is created: only a hash is stored. */
  authToken: optional(Schema.String)
})

export const Workspace = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  owner: Schema.Struct({ email: Schema.String, id: Schema.String, name: Schema.String, avatar: Schema.NullOr(Schema.String) }),
  /** The workspace auth token: shown once, when the workspace is created. */
  authToken: optional(Schema.String),
  apiKeyList: Schema.Record({ key: Schema.String, value: ApiKeyEntry })
}).annotations({ identifier: "Workspace" })

export const WorkspaceResult = SuccessResult(Workspace)

export const CreateApiKeyInput = Schema.Struct({
  ownerEmail: Email,
  type: ApiKeyType,
  apiKeyName: optional(NonEmptyText(200)),
  /** Default true: a key without a token cannot be used until a token is reset. */
  createAuthToken: optional(Schema.Boolean)
})

export const CreateApiKeyResult = SuccessResult(Schema.Struct({ apiKey: Schema.String, authToken: optional(Schema.String) }))

export const ListApiKeysInput = Schema.Struct({
  apiKeys: optional(List(Schema.String, 100)),
  pageSize: optional(PageSize(100)),
  pageToken: optional(Schema.String)
})

export const ListApiKeysResult = SuccessResult(
  Schema.Array(Schema.Struct({ id: Schema.String, apiKeyName: Schema.String, type: ApiKeyType })),
  { nextPageToken: optional(Schema.String) }
)

export const UpdateApiKeyInput = Schema.Struct({ apiKey: NonEmptyText(256), apiKeyName: NonEmptyText(200) })

export const NullResult = SuccessResult(Schema.Null)

export const ApiKeyInput = Schema.Struct({ apiKey: NonEmptyText(256) })

const AuthToken = Schema.Struct({ token: Schema.String, name: Schema.String, domains: Schema.Array(Schema.String) })

export const AuthTokensResult = SuccessResult(Schema.Struct({ apiKey: Schema.String, authTokens: Schema.Array(AuthToken) }))

export const ResetAuthTokenResult = SuccessResult(Schema.Struct({ apiKey: Schema.String, newAuthToken: AuthToken }))

