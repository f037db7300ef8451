import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { LiveState } from "./LiveState.js"
import { LiveStateBroadcastInput, LiveStateBroadcastResult } from "./LiveStateSchemas.js"

export const liveStateOperations = [
  defineOperation({
    name: "livestate.broadcast",
    paths: ["/v2/livestate/broadcast", "/v1/livestate/broadcast"],
    auth: "apiKey",
    summary: "Send data to every realtime subscriber of a document, as a broadcast message (merged into the live state's last data, with merge).",
    input: LiveStateBroadcastInput,
    output: LiveStateBroadcastResult,
    organization: (input) => input.organizationId,
    service: LiveState,
    handler: (liveState, input, caller) =>
      Effect.as(
        liveState.broadcast(
          { apiKey: caller.apiKey, organizationId: input.organizationId, documentId: input.documentId, liveStateDataId: input.liveStateDataId },
          { data: input.data, merge: input.merge ?? false, userId: null, origin: null }
        ),
        answer("Event broadcasted successfully.")({ success: true } as const)
      )
  })
] as const
