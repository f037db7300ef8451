import type { AtriumError } from "./AtriumError.js"
import { type CallArguments, callOperation, type CallOptions, type CallOutcome, type CallStatus } from "./Call.js"
import { definedOnly, type RetryOptions, withRetries } from "./Retry.js"
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
  /**
   * Calls answered 429 or 503 are sent again after the server's Retry-After (Retry.ts): twice at
   * most, and only when the wait is 5 s or less, unless this says otherwise; `false`: never.
   */
  readonly retry?: RetryOptions | false | undefined
}

export type ErrorOf<K extends OperationName> = AtriumError<Operations[K]["errors"] | CallStatus>

/** What a call gives back: the answer's `result`, or a typed error; never a rejected promise. */
export type Outcome<K extends OperationName> = CallOutcome<Operations[K]["result"], ErrorOf<K>>

/** The operations that answer a page at a time: their input takes the `pageToken` of the page before. */
export type PagedOperationName = { [K in OperationName]: "pageToken" extends keyof Operations[K]["input"] ? K : never }[OperationName]

/** One operation's method. */
export type Method<K extends OperationName> = (...args: CallArguments<Operations[K]["input"]>) => Promise<Outcome<K>>

/** A path's names after its version: `/v2/organizations/documents/get` is organizations, documents, get; a v1 path starts with `v1`. */
type Split<S extends string> = S extends `${infer Head}/${infer Tail}` ? [Head, ...Split<Tail>] : [S]
type NamesOf<P extends string> = P extends `/v1/${infer Rest}` ? ["v1", ...Split<Rest>] : P extends `/v2/${infer Rest}` ? Split<Rest> : never
type Entry = { [K in OperationName]: { readonly names: NamesOf<(typeof operationTable)[K]["path"]>; readonly operation: K } }[OperationName]
type Shifted<E> = E extends { readonly names: readonly [string, ...infer Rest extends Array<string>]; readonly operation: infer O } ? Rest extends [] ? never : { readonly names: Rest; readonly operation: O } : never
type LeafOf<E> = E extends { readonly names: readonly [string]; readonly operation: infer O extends OperationName } ? O : never
type NodeOf<E> = ([LeafOf<E>] extends [never] ? unknown : Method<LeafOf<E>>) & ([Shifted<E>] extends [never] ? unknown : TreeOf<Shifted<E>>)
type TreeOf<E extends { readonly names: ReadonlyArray<string> }> = {
  readonly [H in E["names"][0]]: NodeOf<Extract<E, { readonly names: readonly [H, ...Array<string>] }>>
}

/**
 * The same methods grouped by resource, as their paths name them: `client.organizations.documents.get`
 * is `client.organizationsDocumentsGet`; v1 paths under `v1`; an operation whose path another
 * extends carries that one too (`users.data.delete.status`).
 */
export type Resources = TreeOf<Entry>

export type AtriumClient =
  & {
    readonly [K in keyof Operations]: Method<K>
  }
  & Resources
  & {
    /** The same client with some options replaced, e.g. the credentials `workspaceCreate` returned. */
    readonly withOptions: (options: Partial<AtriumClientOptions>) => AtriumClient
    /**
     * Every page of a paged operation, first to last, as `for await` reads them: each is the call's
     * `result`; the token of the next (`nextPageToken`, or `pageToken` where the API names it so) is
     * passed for you. A failed call throws its AtriumError.
     */
    readonly pages: <K extends PagedOperationName>(
      operation: K,
      ...args: CallArguments<Operations[K]["input"]>
    ) => AsyncIterable<Operations[K]["result"]>
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
          withRetries(() =>
            callOperation({
              fetch: options.fetch ?? globalThis.fetch,
              operation,
              url: base + path,
              headers: { ...headers, ...call?.headers },
              data: input ?? {},
              signal: call?.signal
            }), options.retry, call?.signal)
      ]
    })
  ) as Record<string, (input?: unknown, call?: CallOptions) => Promise<CallOutcome<unknown, AtriumError>>>
  async function* pages(operation: string, input?: unknown, call?: CallOptions) {
    let pageToken: string | undefined
    const seen = new Set<string>()
    do {
      const outcome = await methods[operation]!({ ...(input as object | undefined), ...(pageToken !== undefined && { pageToken }) }, call)
      if (outcome.error !== undefined) throw outcome.error
      yield outcome.result
      pageToken = nextPageTokenOf(outcome.result)
      // A token seen before would loop for ever: the last page is the one that gave it.
      if (pageToken !== undefined && seen.has(pageToken)) pageToken = undefined
      if (pageToken !== undefined) seen.add(pageToken)
    } while (pageToken !== undefined)
  }
  return { ...methods, ...grouped(methods), pages, withOptions: (more: Partial<AtriumClientOptions>) => createAtriumClient({ ...options, ...more }) } as unknown as AtriumClient
}

/** The methods as a tree of their paths' names (`Resources`): each leaf calls the flat method. */
const grouped = (methods: Readonly<Record<string, (...args: Array<any>) => unknown>>) => {
  const tree: Record<string, any> = {}
  for (const [operation, { path }] of Object.entries(operationTable)) {
    const [version, ...rest] = path.slice(1).split("/")
    const names = version === "v1" ? ["v1", ...rest] : rest
    let node = tree
    for (const name of names.slice(0, -1)) node = node[name] ??= {}
    const leaf = names.at(-1)!
    const method = methods[operation]!
    // A group made first (`…/delete/status` before `…/delete`) keeps its members on the leaf's function.
    node[leaf] = Object.assign((...args: Array<any>) => method(...args), node[leaf])
  }
  return tree
}

/** The token of the page after this one: `nextPageToken`, or `pageToken` in the older shapes; none when empty. */
const nextPageTokenOf = (result: unknown): string | undefined => {
  const { nextPageToken, pageToken } = (result ?? {}) as { readonly nextPageToken?: unknown; readonly pageToken?: unknown }
  const token = typeof nextPageToken === "string" ? nextPageToken : pageToken
  return typeof token === "string" && token !== "" ? token : undefined
}
