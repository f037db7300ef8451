import { AtriumError } from "./AtriumError.js"
import { credentialHeaderSuffixes, type ErrorStatus, operationTable, type Operations } from "./Operations.generated.js"

export type OperationName = keyof Operations

export interface AtriumClientOptions {
  /** Where Atrium answers, with its mount path if it has one: `http://localhost:8080`, `https://app.example/collab`. */
  readonly baseUrl: string | URL
  /** For the operations that take an API key (most of them). */
  readonly apiKey?: string | undefined
  readonly authToken?: string | undefined
  /** For the workspace operations (API keys, auth tokens, webhooks). */
  readonly workspaceId?: string | undefined
  readonly workspaceAuthToken?: string | undefined
  /** For the client API (`client*` operations): a user's token from generate_token, sent as `Authorization: Bearer`. */
  readonly userToken?: string | undefined
  /** The server's `ATRIUM_HEADER_PREFIX`: `x-service` unless it says otherwise (`x-velt` for hosted-service clients). */
  readonly headerPrefix?: string | undefined
  /** Sent with every request. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Defaults to the global `fetch` (Node 20+, browsers). */
  readonly fetch?: typeof fetch | undefined
}

export interface CallOptions {
  readonly signal?: AbortSignal | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** Statuses any call can end with besides those its operation declares (see AtriumError). */
export type CallStatus = "NOT_FOUND" | "UNAVAILABLE" | "CANCELLED" | "UNKNOWN"

export type ErrorOf<K extends OperationName> = AtriumError<Operations[K]["errors"] | CallStatus>

/** What a call gives back: the answer's `result`, or a typed error; never a rejected promise. */
export type Outcome<K extends OperationName> =
  | { readonly result: Operations[K]["result"]; readonly error?: undefined; readonly response: Response }
  | { readonly result?: undefined; readonly error: ErrorOf<K>; readonly response?: Response | undefined }

type Arguments<I> = {} extends I ? [input?: I, options?: CallOptions] : [input: I, options?: CallOptions]

export type AtriumClient =
  & {
    readonly [K in keyof Operations]: (...args: Arguments<Operations[K]["input"]>) => Promise<Outcome<K>>
  }
  & {
    /** The same client with some options replaced, e.g. the credentials `workspaceCreate` returned. */
    readonly withOptions: (options: Partial<AtriumClientOptions>) => AtriumClient
  }

/** A method for every operation in the operation table, each a JSON POST through `fetch`. */
export const createAtriumClient = (options: AtriumClientOptions): AtriumClient => {
  const base = String(options.baseUrl).replace(/\/+$/, "")
  const prefix = options.headerPrefix ?? "x-service"
  const name = (header: keyof typeof credentialHeaderSuffixes) => `${prefix}-${credentialHeaderSuffixes[header]}`
  const credentials = {
    apiKey: { [name("apiKey")]: options.apiKey, [name("authToken")]: options.authToken },
    workspace: { [name("workspaceId")]: options.workspaceId, [name("workspaceAuthToken")]: options.workspaceAuthToken },
    public: {},
    user: { authorization: options.userToken === undefined ? undefined : `Bearer ${options.userToken}` }
  }
  const methods = Object.fromEntries(
    Object.entries(operationTable).map(([operation, { auth, path }]) => {
      const headers = definedOnly({ "content-type": "application/json", ...options.headers, ...credentials[auth] })
      return [
        operation,
        (input?: unknown, call?: CallOptions) =>
          send(options.fetch ?? globalThis.fetch, operation, base + path, { ...headers, ...call?.headers }, input ?? {}, call?.signal)
      ]
    })
  )
  return { ...methods, withOptions: (more) => createAtriumClient({ ...options, ...more }) } as AtriumClient
}

const definedOnly = (headers: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined))

const send = async (
  fetchFn: typeof fetch,
  operation: string,
  url: string,
  headers: Record<string, string>,
  data: unknown,
  signal: AbortSignal | undefined
): Promise<Outcome<OperationName>> => {
  const failure = (fields: Omit<ConstructorParameters<typeof AtriumError>[0], "operation">, response?: Response) => ({
    error: new AtriumError({ ...fields, operation }) as ErrorOf<OperationName>,
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
  if (response.ok && body !== null && "result" in body) return { result: body.result as never, response }
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
