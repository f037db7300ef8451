import { AtriumError } from "./AtriumError.js"
import type { ErrorStatus } from "./Operations.generated.js"

export interface CallOptions {
  readonly signal?: AbortSignal | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** Statuses any call can end with besides those its operation declares (see AtriumError). */
export type CallStatus = "NOT_FOUND" | "UNAVAILABLE" | "CANCELLED" | "UNKNOWN"

/** What a call gives back: the answer's `result`, or a typed error; never a rejected promise. */
export type CallOutcome<Result, Error extends AtriumError> =
  | { readonly result: Result; readonly error?: undefined; readonly response: Response }
  | { readonly result?: undefined; readonly error: Error; readonly response?: Response | undefined }

/** A method's parameters: the input may be left out when none of its keys is required. */
export type CallArguments<I> = {} extends I ? [input?: I, options?: CallOptions] : [input: I, options?: CallOptions]

/**
 * One call: `data` POSTed to `url` in the API's envelope through `fetchFn`, the answer read into a
 * `result` or an AtriumError (no answer, a cancelled call and a body that is not Atrium's
 * included). Every method of `createAtriumClient` is one; `@atrium/browser` makes its calls with it.
 */
export const callOperation = async (call: {
  readonly fetch: typeof fetch
  /** The method's name, carried by its errors. */
  readonly operation: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly data: unknown
  readonly signal?: AbortSignal | undefined
}): Promise<CallOutcome<unknown, AtriumError>> => {
  // Called as a plain function: browsers refuse a `fetch` called as another object's method.
  const { data, fetch: fetchFn, headers, operation, signal, url } = call
  const failure = (fields: Omit<ConstructorParameters<typeof AtriumError>[0], "operation">, response?: Response) => ({
    error: new AtriumError({ ...fields, operation }),
    response
  })
  let response: Response
  let text: string
  try {
    response = await fetchFn(url, { method: "POST", headers, body: JSON.stringify({ data }), ...(signal ? { signal } : {}) })
    text = await response.text()
  } catch (cause) {
    return signal?.aborted
      ? failure({ status: "CANCELLED", message: `${operation} was cancelled.`, httpStatus: 0, cause })
      : failure({ status: "UNAVAILABLE", message: `No answer from POST ${url}: ${messageOf(cause)}`, httpStatus: 0, cause })
  }
  const body = parsed(text)
  if (response.ok && body !== null && "result" in body) return { result: body.result, response }
  const error = body?.error
  if (isEnvelopeError(error)) {
    const retryAfter = Number(response.headers.get("retry-after") ?? Number.NaN)
    return failure({
      status: error.status,
      message: error.message,
      httpStatus: response.status,
      code: error.code,
      details: error.details,
      retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined
    }, response)
  }
  const excerpt = text.length > 200 ? `${text.slice(0, 200)}…` : text
  return failure({
    status: "UNKNOWN",
    message: `POST ${url} answered ${response.status} with a body that is not Atrium's: ${excerpt || "(empty)"}`,
    httpStatus: response.status
  }, response)
}

const parsed = (text: string): Record<string, unknown> | null => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

const isEnvelopeError = (
  value: unknown
): value is { status: ErrorStatus; message: string; code?: number; details?: Record<string, unknown> } =>
  typeof value === "object" && value !== null && "status" in value && typeof value.status === "string" &&
  "message" in value && typeof value.message === "string"

const messageOf = (cause: unknown): string => {
  const inner = (cause as { cause?: { message?: unknown } })?.cause?.message
  const outer = cause instanceof Error ? cause.message : String(cause)
  return typeof inner === "string" ? `${outer} (${inner})` : outer
}

/** The `result` of a call, or its AtriumError thrown: for code that would rather throw. */
export const orThrow = async <O extends { readonly result?: unknown; readonly error?: AtriumError | undefined }>(
  outcome: Promise<O> | O
): Promise<NonNullable<O["result"]>> => {
  const settled = await outcome
  if (settled.error !== undefined) throw settled.error
  return settled.result as NonNullable<O["result"]>
}
