import * as Either from "effect/Either"
import { MAX_PRESENCE_DATA_BYTES } from "../presence/PresenceLife.js"
import { PresenceStatus } from "../presence/PresenceSchemas.js"
import { type ApiError, invalidArgument } from "../protocol/ApiError.js"

/** The longest frame a client may send (docs/realtime.md, "Bounded"): presence `data` is at most 4 KB. */
export const MAX_FRAME_BYTES = 16 * 1024

/** A client's `id`, echoed in the answer: a string or a number, as the client chose it. */
export type FrameId = string | number | undefined

/** What a client sends (spec client-api.md, "Realtime"), decoded. */
export type ClientFrame =
  | {
    readonly type: "subscribe"
    readonly id: FrameId
    readonly organizationId: string
    readonly documentId: string
    /** Resuming: the seq of the last event received. */
    readonly afterSeq: number | undefined
    /** Resuming: the `since` of the `subscribed` answer the client had (the run of follows it was in). */
    readonly since: number | undefined
  }
  | { readonly type: "unsubscribe"; readonly id: FrameId; readonly organizationId: string; readonly documentId: string }
  | {
    readonly type: "presence"
    readonly id: FrameId
    readonly organizationId: string
    readonly documentId: string
    /** Unchanged when absent. */
    readonly status: PresenceStatus | undefined
    /** A JSON object (or null, to clear it); unchanged when absent. */
    readonly data: Record<string, unknown> | null | undefined
  }
  | {
    readonly type: "broadcast"
    readonly id: FrameId
    readonly organizationId: string
    readonly documentId: string
    readonly liveStateDataId: string
    /** A JSON object (within the frame's 16 KB). */
    readonly data: Record<string, unknown>
    /** Set its keys over the live state's last data rather than replace it (false when absent). */
    readonly merge: boolean
  }

/** A frame refused: the error message to send, with the frame's `id` when it had a usable one. */
export interface RefusedFrame {
  readonly id: FrameId
  readonly error: ApiError
}

const TYPES = ["subscribe", "unsubscribe", "presence", "broadcast"] as const
const STATUSES = PresenceStatus.literals
const utf8 = new TextEncoder()
/** Ids as the server API takes them: 1 to 256 characters. */
const isId = (value: unknown): value is string => typeof value === "string" && value.length > 0 && value.length <= 256

/** A text frame as a client message, or why not (the message says what is wrong). */
export const decodeFrame = (text: string): Either.Either<ClientFrame, RefusedFrame> => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return Either.left({ id: undefined, error: invalidArgument("A frame must be a JSON object: this one is not JSON.") })
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return Either.left({ id: undefined, error: invalidArgument("A frame must be a JSON object with a \"type\".") })
  }
  const frame = value as Record<string, unknown>
  const id = typeof frame.id === "string" || (typeof frame.id === "number" && Number.isFinite(frame.id)) ? frame.id : undefined
  const refuse = (message: string) => Either.left({ id, error: invalidArgument(message) })
  if (frame.id !== undefined && id === undefined) return refuse("\"id\" must be a string or a number.")
  const type = frame.type
  if (typeof type !== "string" || !(TYPES as ReadonlyArray<string>).includes(type)) {
    return refuse(`Unknown message type ${JSON.stringify(type ?? null)}: send subscribe, unsubscribe, presence or broadcast.`)
  }
  if (!isId(frame.organizationId)) return refuse(`${type}: "organizationId" must be a string of 1 to 256 characters.`)
  if (!isId(frame.documentId)) return refuse(`${type}: "documentId" must be a string of 1 to 256 characters.`)
  const { documentId, organizationId } = frame
  switch (type) {
    case "subscribe": {
      const afterSeq = frame.afterSeq
      if (afterSeq !== undefined && !(Number.isSafeInteger(afterSeq) && (afterSeq as number) >= 0)) {
        return refuse("subscribe: \"afterSeq\" must be the seq of the last event received (an integer, 0 or more).")
      }
      const since = frame.since
      if (since !== undefined && !(Number.isSafeInteger(since) && (since as number) >= 0)) {
        return refuse("subscribe: \"since\" must be the since of the last subscribed answer (an integer, 0 or more).")
      }
      return Either.right({ type, id, organizationId, documentId, afterSeq: afterSeq as number | undefined, since: since as number | undefined })
    }
    case "unsubscribe":
      return Either.right({ type, id, organizationId, documentId })
    case "broadcast": {
      const { data, liveStateDataId, merge } = frame
      if (!isId(liveStateDataId)) return refuse("broadcast: \"liveStateDataId\" must be a string of 1 to 256 characters.")
      if (typeof data !== "object" || data === null || Array.isArray(data)) return refuse("broadcast: \"data\" must be a JSON object.")
      if (merge !== undefined && typeof merge !== "boolean") return refuse("broadcast: \"merge\" must be true or false.")
      return Either.right({ type, id, organizationId, documentId, liveStateDataId, data: data as Record<string, unknown>, merge: merge === true })
    }
    default: {
      const { data, status } = frame
      if (status !== undefined && !(STATUSES as ReadonlyArray<unknown>).includes(status)) {
        return refuse(`presence: "status" must be one of ${STATUSES.join(", ")}.`)
      }
      if (data !== undefined && data !== null && (typeof data !== "object" || Array.isArray(data))) {
        return refuse("presence: \"data\" must be a JSON object (or null to clear it).")
      }
      if (data != null && utf8.encode(JSON.stringify(data)).length > MAX_PRESENCE_DATA_BYTES) {
        return refuse(`presence: "data" is over ${MAX_PRESENCE_DATA_BYTES} bytes as JSON.`)
      }
      return Either.right({
        type: "presence",
        id,
        organizationId,
        documentId,
        status: status as PresenceStatus | undefined,
        data: data as Record<string, unknown> | null | undefined
      })
    }
  }
}

/** `{"type":"error", …}` for a refused frame or call (spec: `{"type": "error", "id", "status", "message"}`). */
export const errorMessage = (id: FrameId, error: ApiError): string =>
  JSON.stringify({ type: "error", ...(id !== undefined && { id }), status: error.status, message: error.message })
