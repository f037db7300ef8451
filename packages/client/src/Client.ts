import type { AtriumError } from "./AtriumError.js"
import { type CallArguments, callOperation, type CallOptions, type CallOutcome, type CallStatus } from "./Call.js"
import { credentialHeaderSuffixes, operationTable, type Operations } from "./Operations.generated.js"

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

export type ErrorOf<K extends OperationName> = AtriumError<Operations[K]["errors"] | CallStatus>

/** What a call gives back: the answer's `result`, or a typed error; never a rejected promise. */
export type Outcome<K extends OperationName> = CallOutcome<Operations[K]["result"], ErrorOf<K>>

export type AtriumClient =
  & {
    readonly [K in keyof Operations]: (...args: CallArguments<Operations[K]["input"]>) => Promise<Outcome<K>>
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
          callOperation({
            fetch: options.fetch ?? globalThis.fetch,
            operation,
            url: base + path,
            headers: { ...headers, ...call?.headers },
            data: input ?? {},
            signal: call?.signal
          })
      ]
    })
  )
  return { ...methods, withOptions: (more) => createAtriumClient({ ...options, ...more }) } as AtriumClient
}

const definedOnly = (headers: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined))
