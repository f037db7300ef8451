import type * as Layer from "effect/Layer"
import { type AtriumHandler, createAtrium } from "../Atrium.js"
import type { AtriumOptionsInput } from "../Config.js"
import type { EventListener } from "../events/EventListener.js"
import { Ids } from "../ports/Ids.js"
import type { Mailer } from "../ports/Mailer.js"
import type { StorageServices } from "../Storage.js"
import { assertOutputMatches } from "./OutputCheck.js"

export interface TestResponse {
  readonly status: number
  /** The parsed JSON answer (undefined for a 204, which has none). */
  readonly body: any
  readonly text: string
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
}

export interface RawRequest {
  readonly method?: string
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  /** Sent as is (a string or bytes); omitted: no body. */
  readonly body?: string | Uint8Array
}

/**
 * Sends requests to an Atrium, directly or over HTTP: the same tests run through both. A
 * success that does not match its operation's output schema throws (OutputCheck.ts).
 */
export interface TestClient {
  readonly raw: (request: RawRequest) => Promise<TestResponse>
  /** POST `{"data": data}` as JSON with the given headers. */
  readonly post: (path: string, data: unknown, headers?: Readonly<Record<string, string>>) => Promise<TestResponse>
}

export const clientOf = (
  send: (request: RawRequest) => Promise<{ status: number; text: string; headers: Readonly<Record<string, string>> }>
): TestClient => {
  const raw = async (request: RawRequest): Promise<TestResponse> => {
    const { headers, status, text } = await send(request)
    // An admitted preflight: no body at all.
    if (status === 204 && text === "") return { status, body: undefined, text, headers }
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      throw new Error(`Answer to ${request.path} is not JSON (status ${status}): ${text.slice(0, 200)}`)
    }
    assertOutputMatches(request.path, status, body)
    return { status, body, text, headers }
  }
  return {
    raw,
    post: (path, data, headers = {}) =>
      raw({ path, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ data }) })
  }
}

/** A client that calls `atrium.handle` in process. */
export const directClient = (atrium: AtriumHandler): TestClient =>
  clientOf(async (request) => {
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value
    const response = await atrium.handle({
      method: request.method ?? "POST",
      path: request.path,
      headers,
      body: request.body,
      ip: "127.0.0.1"
    })
    return { status: response.status, text: response.body, headers: response.headers }
  })

/** A client that sends real HTTP requests to `baseUrl`. */
export const httpClient = (baseUrl: string): TestClient =>
  clientOf(async (request) => {
    const response = await fetch(baseUrl + request.path, {
      method: request.method ?? "POST",
      headers: request.headers ?? {},
      ...(request.body !== undefined && { body: request.body as BodyInit })
    })
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => void (headers[name] = value))
    return { status: response.status, text: await response.text(), headers }
  })

export interface TestCredentials {
  readonly workspaceId: string
  readonly workspaceAuthToken: string
  readonly apiKey: string
  readonly authToken: string
  /** The two API-key headers. */
  readonly headers: Readonly<Record<string, string>>
  /** The two workspace headers. */
  readonly workspaceHeaders: Readonly<Record<string, string>>
}

const testUserHeaders = new WeakMap<TestCredentials, Promise<Readonly<Record<string, string>>>>()

/**
 * The headers an operation of `auth` takes, from a test workspace's credentials; for the client
 * API a token of the key's user `test-user` (no grants), issued at first use.
 */
export const credentialsFor = async (auth: string, creds: TestCredentials, client: TestClient): Promise<Readonly<Record<string, string>>> => {
  if (auth !== "user") return auth === "workspace" ? creds.workspaceHeaders : creds.headers
  let headers = testUserHeaders.get(creds)
  if (headers === undefined) testUserHeaders.set(creds, headers = userHeadersFor(client, creds.headers, "test-user"))
  return headers
}

/** A token generate_token issued for `userId` of the key (name and email made from the id), as client API headers. */
export const userHeadersFor = async (
  client: TestClient,
  headers: Readonly<Record<string, string>>,
  userId: string,
  resources: ReadonlyArray<unknown> = []
): Promise<Readonly<Record<string, string>>> => {
  const answer = await client.post("/v2/auth/generate_token", {
    userId,
    userProperties: { name: `User ${userId}`, email: `${userId}@example.com` },
    permissions: { resources }
  }, headers)
  if (answer.status !== 200) throw new Error(`generate_token failed: ${answer.text}`)
  return { authorization: `Bearer ${answer.body.result.data.token}` }
}

let workspaceCounter = 0

/** Creates a workspace through the public operation and returns its credentials as headers. */
export const createTestWorkspace = async (client: TestClient, ownerEmail?: string): Promise<TestCredentials> => {
  const email = ownerEmail ?? `owner${++workspaceCounter}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const answer = await client.post("/v2/workspace/create", { ownerEmail: email })
  if (answer.status !== 200) throw new Error(`workspace/create failed: ${answer.text}`)
  const data = answer.body.result.data
  const [apiKey, entry] = Object.entries(data.apiKeyList)[0] as [string, { authToken: string }]
  const headers = { "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken }
  return {
    workspaceId: data.id,
    workspaceAuthToken: data.authToken,
    apiKey,
    authToken: entry.authToken,
    headers,
    workspaceHeaders: { "x-service-workspace-id": data.id, "x-service-workspace-auth-token": data.authToken }
  }
}

/**
 * An Atrium over the given storage with sequential ids and lifted rate limits unless options say
 * otherwise; `listeners` of domain events besides its own; with `runDeliveries`, its delivery
 * worker runs in the background.
 */
export const testAtrium = <E>(
  storage: Layer.Layer<StorageServices, E>,
  options: AtriumOptionsInput = {},
  mailer?: Layer.Layer<Mailer>,
  { listeners, runDeliveries = false }: {
    readonly listeners?: ReadonlyArray<EventListener> | undefined
    readonly runDeliveries?: boolean | undefined
  } = {}
): AtriumHandler =>
  createAtrium({
    storage,
    ids: Ids.Sequential,
    runDeliveries,
    ...(mailer && { mailer }),
    ...(listeners && { listeners }),
    options: {
      allowPrivateNetworks: true,
      ...options,
      rateLimits: {
        workspaceCreatePerIp: { limit: 1_000_000, windowMillis: 60_000 },
        ...options.rateLimits
      }
    }
  })
