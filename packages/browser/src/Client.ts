import { AtriumError, type CallArguments, callOperation, type CallOptions, type CallOutcome, type CallStatus } from "@atrium/client"
import { operationTable, type Operations } from "./Operations.generated.js"
import { createRealtime, type RealtimeApi } from "./Realtime.js"
import { createTokenCache, type GetToken } from "./TokenCache.js"

export type OperationName = keyof Operations

export interface ClientOptions {
  /** Where Atrium answers, with its mount path if it has one: `https://collab.example`, `https://app.example/collab`. */
  readonly baseUrl: string | URL
  /**
   * The signed-in user's Atrium token, from your app (your backend calls generate_token). Asked at
   * the first call, again shortly before the token expires, and once more when Atrium answers
   * `token_expired` (the call is then made again once); concurrent calls share one pending ask.
   */
  readonly getToken: GetToken
  /** Sent with every request. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Defaults to the global `fetch`. */
  readonly fetch?: typeof fetch | undefined
  /** The realtime socket's constructor; defaults to the global `WebSocket`, looked up when the first room is entered. */
  readonly WebSocket?: typeof WebSocket | undefined
}

export type ErrorOf<K extends OperationName> = AtriumError<Operations[K]["errors"] | CallStatus>

/** What a call gives back: the answer's `result`, or a typed error; never a rejected promise. */
export type Outcome<K extends OperationName> = CallOutcome<Operations[K]["result"], ErrorOf<K>>

/** A method for every operation of the client API, named by the server operation it mirrors. */
export type Operating = {
  readonly [K in OperationName]: (...args: CallArguments<Operations[K]["input"]>) => Promise<Outcome<K>>
}

/** The operations, and realtime: rooms (`enter`), the user's notifications, the socket's state. */
export type Client = Operating & RealtimeApi

/** Atrium's client API as the signed-in user: each call a JSON POST through `fetch` with `Authorization: Bearer <token>`. */
export const createClient = (options: ClientOptions): Client => {
  const base = String(options.baseUrl).replace(/\/+$/, "")
  const tokens = createTokenCache(options.getToken)

  const invoke = async (operation: string, path: string, input: unknown, call: CallOptions | undefined) => {
    const send = (token: string) =>
      callOperation({
        fetch: options.fetch ?? globalThis.fetch,
        operation,
        url: base + path,
        headers: { "content-type": "application/json", ...options.headers, authorization: `Bearer ${token}`, ...call?.headers },
        data: input ?? {},
        signal: call?.signal
      })
    const failed = (cause: unknown) => ({ error: tokenFailure(operation, cause) })
    let token: string
    try {
      token = await tokens.current()
    } catch (cause) {
      return failed(cause)
    }
    const first = await send(token)
    if (!isTokenExpired(first.error)) return first
    try {
      token = await tokens.renew(token)
    } catch (cause) {
      return failed(cause)
    }
    return send(token)
  }

  const operating = Object.fromEntries(
    Object.entries(operationTable).map(([operation, { path }]) => [
      operation,
      (input?: unknown, call?: CallOptions) => invoke(operation, path, input, call)
    ])
  ) as Operating
  const realtime = createRealtime({
    url: `${base.replace(/^http/i, "ws")}/v2/client/realtime`,
    tokens,
    WebSocket: () => options.WebSocket ?? globalThis.WebSocket
  })
  return { ...operating, ...realtime }
}

const isTokenExpired = (error: AtriumError | undefined) => error?.status === "UNAUTHENTICATED" && error.details?.["reason"] === "token_expired"

/** No token to send: the host's `getToken` threw, rejected or gave something else than a token. */
const tokenFailure = (operation: string, cause: unknown) =>
  new AtriumError({
    status: "UNAUTHENTICATED",
    message: `getToken failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    httpStatus: 0,
    operation,
    details: { reason: "get_token_failed" },
    cause
  })
