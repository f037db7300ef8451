import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { Id, JsonObject, maxJsonBytes, optional } from "../schema/Common.js"

/** The largest live state, as UTF-8 JSON text: what is sent, and what a merge leaves stored (docs/decisions.md, "Realtime"). */
export const MAX_LIVE_STATE_BYTES = 64 * 1024

/** livestate/broadcast as the hosted service takes it (docs/realtime.md, "Broadcast"). */
export const LiveStateBroadcastInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  /** Names the live state within the document: subscribers tell broadcasts apart by it. */
  liveStateDataId: Id,
  data: JsonObject.pipe(maxJsonBytes(MAX_LIVE_STATE_BYTES)).annotations({
    description: `Any JSON object, at most ${MAX_LIVE_STATE_BYTES} bytes as JSON: sent to the document's subscribers (merged first, with merge).`
  }),
  merge: optional(Schema.Boolean.annotations({
    description: "true: the data's keys are set over the live state's last data (a shallow merge), and the result is sent and kept; false (default): the data replaces it."
  }))
})

export const LiveStateBroadcastResult = SuccessResult(Schema.Struct({ success: Schema.Literal(true) }))
