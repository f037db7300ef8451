import * as Schema from "effect/Schema"
import type { ApiError } from "./ApiError.js"
import { type ErrorStatus, errorStatuses } from "./ErrorStatus.js"
import type { Page } from "./PageTokens.js"

/** `result` of an ordinary operation: `{ status: "success", message, data }`. */
export interface Success<D> {
  readonly status: "success"
  readonly message: string
  readonly data: D
}

export const success = <D>(message: string, data: D): Success<D> => ({ status: "success", message, data })

/**
 * `result` of a list operation: one page of items as `data`, and the next page's token under
 * `tokenKey` (the spec says `pageToken` or `nextPageToken`) when there is another page.
 */
export const successPage = <D, K extends string>(message: string, data: D, next: string | undefined, tokenKey: K) =>
  (next === undefined ? success(message, data) : { ...success(message, data), [tokenKey]: next }) as
    & Success<D>
    & { readonly [key in K]?: string }

/**
 * An operation row's answer (issue 22): services return domain values, and the row says how
 * they go on the wire, e.g. `Effect.map(folders.get(apiKey, input), answer("Folder(s) retrieved successfully."))`.
 */
export const answer = (message: string) => <D>(data: D): Success<D> => success(message, data)

/** An operation row's answer for a list operation: the service's page, its token under `tokenKey`. */
export const answerPage = <K extends string>(message: string, tokenKey: K) => <D>(page: Page<D>) =>
  successPage(message, page.items, page.next, tokenKey)

/**
 * answerPage for a page answered as something other than its list of items (e.g. grouped by
 * document): `data` is made from the items.
 */
export const answerPageAs = <K extends string, D, T>(message: string, tokenKey: K, data: (items: ReadonlyArray<D>) => T) => (page: Page<D>) =>
  successPage(message, data(page.items), page.next, tokenKey)

/** Output schema of an ordinary operation, plus any keys the spec puts beside `data`. */
export const SuccessResult = <D extends Schema.Schema.Any, F extends Schema.Struct.Fields = {}>(
  data: D,
  beside?: F
) =>
  Schema.Struct({
    status: Schema.Literal("success"),
    message: Schema.String,
    data,
    ...(beside ?? ({} as F))
  })

/** A success that carries no data (documents/move answers only its message, as the hosted service does). */
export const MessageResult = Schema.Struct({ status: Schema.Literal("success"), message: Schema.String })

/** Per-item outcome of a batch operation (spec convention 5). */
export const BatchItem = Schema.Struct({ success: Schema.Boolean, message: Schema.String })
export const BatchItemWithId = Schema.Struct({ success: Schema.Boolean, id: Schema.String, message: Schema.String })
export const BatchResult = <I extends Schema.Schema.Any>(item: I) => Schema.Record({ key: Schema.String, value: item })

/** The error envelope, for OpenAPI. */
export const ErrorEnvelope = Schema.Struct({
  error: Schema.Struct({
    status: Schema.Literal(...(errorStatuses as [ErrorStatus, ...Array<ErrorStatus>])),
    message: Schema.String,
    code: Schema.optional(Schema.Number),
    details: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
  })
}).annotations({ identifier: "ErrorEnvelope" })

export const errorBody = (error: ApiError): string => {
  const body: { status: string; message: string; code?: number; details?: unknown } = {
    status: error.status,
    message: error.message
  }
  if (error.code !== undefined) body.code = error.code
  if (error.details !== undefined) body.details = error.details
  return JSON.stringify({ error: body })
}
