import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { Email, Id, NonEmptyIds, NonEmptyList, optional, Text } from "../schema/Common.js"

/** Users per presence call (docs/decisions.md, "Limits": one call stays short on SQLite). */
export const MAX_PRESENCE_USERS_PER_CALL = 100

export const PresenceStatus = Schema.Literal("online", "away", "offline")
export type PresenceStatus = typeof PresenceStatus.Type

/** presence/add and presence/update as the hosted service takes them (docs/compatibility.md, "Activities and presence"). */
export const PresenceWriteInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  users: NonEmptyList(
    Schema.Struct({ userId: Id, name: optional(Text(1000)), email: optional(Email), status: optional(PresenceStatus) }),
    MAX_PRESENCE_USERS_PER_CALL
  )
})

export const PresenceDeleteInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  userIds: NonEmptyIds(MAX_PRESENCE_USERS_PER_CALL)
})

export const PresenceResult = SuccessResult(Schema.Struct({ success: Schema.Literal(true) }))
