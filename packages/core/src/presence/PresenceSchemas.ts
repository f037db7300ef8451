import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { Email, Id, NonEmptyIds, optional, Text } from "../schema/Common.js"

export const PresenceStatus = Schema.Literal("online", "away", "offline")
export type PresenceStatus = typeof PresenceStatus.Type

/** presence/add and presence/update as the hosted service takes them (docs/compatibility.md, "Activities and presence"). */
export const PresenceWriteInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  users: Schema.Array(Schema.Struct({
    userId: Id,
    name: optional(Text(1000)),
    email: optional(Email),
    status: optional(PresenceStatus)
  })).pipe(Schema.minItems(1, { message: () => "must have at least 1 entry" }))
})

export const PresenceDeleteInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  userIds: NonEmptyIds()
})

export const PresenceResult = SuccessResult(Schema.Struct({ success: Schema.Literal(true) }))
