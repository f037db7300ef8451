import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { Id, NonEmptyIds } from "../schema/Common.js"

/** Documents per client access/get (spec client-api.md, "Access"). */
export const MAX_CLIENT_ACCESS_DOCUMENTS = 30

/** client access/get: the acting user's role on each document of one organization. */
export const ClientAccessInput = Schema.Struct({
  organizationId: Id,
  documentIds: NonEmptyIds(MAX_CLIENT_ACCESS_DOCUMENTS)
})

export const ClientAccessResult = SuccessResult(Schema.Record({
  key: Schema.String,
  value: Schema.Struct({ accessRole: Schema.NullOr(Schema.Literal("editor", "viewer")) })
}))
