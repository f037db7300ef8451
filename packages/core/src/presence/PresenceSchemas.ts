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

/** client presence/get (spec client-api.md, "Operations"): the document whose list the user reads. */
export const ClientPresenceInput = Schema.Struct({ organizationId: Id, documentId: Id })

/** One user present, as the client API answers it: `data` is what the user's client set (realtime), null until then. */
export const ClientPresenceEntry = Schema.Struct({
  userId: Schema.String,
  name: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  status: PresenceStatus,
  data: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  /** The last sign of life, epoch ms. */
  lastSeenAt: Schema.Number
})

export const ClientPresenceResult = SuccessResult(Schema.Array(ClientPresenceEntry))
