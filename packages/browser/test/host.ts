/**
 * What the browser SDK's tests run against: a real Atrium behind node:http on loopback, with a
 * workspace, an organization "acme" and its document "spec-42" (Ann and Bo present on it), and
 * the tokens a host app's backend would hand its signed-in users.
 */
import { type AtriumClient, createAtriumClient, orThrow } from "@atrium/client"
import { Tokens } from "@atrium/core"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"
import { join } from "node:path"
import { type HttpAtrium, serveAtrium } from "../../../test-support/HttpAtrium.js"

export interface Host extends HttpAtrium {
  readonly apiKey: string
  /** The host's backend: the server API with the workspace's API key. */
  readonly backend: AtriumClient
  /** The API key's headers, for calls that do not go through `backend` (in process, while the server is interrupted). */
  readonly backendHeaders: Readonly<Record<string, string>>
  /** What the host's backend does for a signed-in user: generate_token with its API key. */
  readonly token: (userId: string, expiresInSeconds?: number) => Promise<string>
  /** A token as generate_token would have issued it `ageSeconds` ago, for `lifetimeSeconds`: Atrium's own signing, its clock turned back. */
  readonly tokenIssuedAgo: (userId: string, ageSeconds: number, lifetimeSeconds: number) => Promise<string>
}

const userProperties = (userId: string) => ({ name: `User ${userId}`, email: `${userId}@acme.example` })

/**
 * `routes` answers the requests it knows (a page, a token endpoint) before Atrium sees them. In
 * memory unless `storage` says otherwise; `realtime` serves the WebSocket too.
 */
export const startHost = async (
  routes?: (req: IncomingMessage, res: ServerResponse) => boolean,
  { realtime = false, storage = "memory" }: { readonly storage?: "memory" | "sqlite"; readonly realtime?: boolean } = {}
): Promise<Host> => {
  const served = await serveAtrium(storage, { realtime, ...(routes && { routes }) })
  const created = await orThrow(createAtriumClient({ baseUrl: served.url }).workspaceCreate({ ownerEmail: "owner@acme.example" }))
  const [apiKey, entry] = Object.entries(created.data.apiKeyList)[0]!
  const backend = createAtriumClient({ baseUrl: served.url, apiKey, authToken: entry.authToken })
  await orThrow(backend.organizationsAdd({ organizations: [{ organizationId: "acme", organizationName: "Acme" }] }))
  await orThrow(backend.organizationsDocumentsAdd({ organizationId: "acme", documents: [{ documentId: "spec-42", documentName: "Spec 42" }] }))
  await orThrow(backend.presenceAdd({
    organizationId: "acme",
    documentId: "spec-42",
    users: ["ann", "bo"].map((userId) => ({ userId, ...userProperties(userId), status: "online" as const }))
  }))
  const permissions = { resources: [{ type: "organization" as const, id: "acme" }] }

  return {
    ...served,
    apiKey,
    backend,
    backendHeaders: { "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken ?? "" },
    token: async (userId, expiresInSeconds) =>
      (await orThrow(backend.authGenerateToken({ userId, userProperties: userProperties(userId), permissions, expiresInSeconds }))).data.token,
    tokenIssuedAgo: (userId, ageSeconds, lifetimeSeconds) =>
      served.atrium.runtime.runPromise(
        Tokens.generate(apiKey, { userId, userProperties: userProperties(userId), permissions, expiresInSeconds: lifetimeSeconds }).pipe(
          Effect.map(({ token }) => token),
          Effect.withClock(clockAt(Date.now() - ageSeconds * 1000))
        )
      )
  }
}

/** A clock stopped at `millis`. */
const clockAt = (millis: number): Clock.Clock => ({
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  unsafeCurrentTimeMillis: () => millis,
  currentTimeMillis: Effect.succeed(millis),
  unsafeCurrentTimeNanos: () => BigInt(millis) * 1_000_000n,
  currentTimeNanos: Effect.succeed(BigInt(millis) * 1_000_000n),
  sleep: () => Effect.void
})

/** The built SDK, as the test pages import it. */
export const bundlePath = join(__dirname, "..", "dist", "index.js")

/**
 * The routes of a test page's host: `/` the page, `/atrium-browser.js` the built SDK, and
 * `/host/atrium-token?user=` the host's token endpoint, answering what `tokenFor(user)` gives.
 */
export const pageRoutes = (page: string, tokenFor: (user: string) => Promise<string>) => (req: IncomingMessage, res: ServerResponse): boolean => {
  const answer = (type: string, body: string | Buffer | Promise<string>) => {
    void Promise.resolve(body).then((text) => res.writeHead(200, { "content-type": type }).end(text))
    return true
  }
  const url = new URL(req.url ?? "/", "http://host")
  switch (url.pathname) {
    case "/":
      return answer("text/html", page)
    case "/favicon.ico":
      return answer("image/x-icon", "")
    case "/atrium-browser.js":
      return answer("text/javascript", readFileSync(bundlePath))
    case "/host/atrium-token":
      return answer("text/plain", tokenFor(url.searchParams.get("user") ?? "ann"))
    default:
      return false
  }
}
