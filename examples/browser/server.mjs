// A web page where two demo users comment on a document through @atrium/browser: Ann may write,
// Bob may only read; each sees who else is on the page, their cursors and new comments live, and
// a bell counts their notifications. One node:http server serves the page, the host's token
// endpoint and Atrium (its HTTP API and its realtime WebSocket).
// Run: pnpm --filter @atrium/example-browser start   (PORT, DB_FILE), then open http://127.0.0.1:3000
// With DATABASE_URL (PostgreSQL) instead of DB_FILE, start it twice on two ports (KEY_FILE shared):
// users on either server see each other live.
import { createAtriumClient, orThrow } from "@atrium/client"
import { createAtrium } from "@atrium/core"
import { attachRealtime, toNodeListener } from "@atrium/node-http"
import { PgStorage } from "@atrium/sql-pg"
import { SqliteStorage } from "@atrium/sql-sqlite"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"

const dbFile = process.env.DB_FILE ?? ".data/example.db"
const databaseUrl = process.env.DATABASE_URL
const atrium = createAtrium({ storage: databaseUrl ? PgStorage.layer({ url: databaseUrl }) : SqliteStorage.layer({ filename: dbFile }) })

// The host's own users, and the role each has on the document: a real app has its accounts and rules.
const users = {
  ann: { name: "Ann", email: "ann@example.com", accessRole: "editor" },
  bob: { name: "Bob", email: "bob@example.com", accessRole: "viewer" }
}
const organizationId = "acme"
const documentId = "spec-42"

// The server API, called in-process: atrium.fetch answers as Atrium does over HTTP. With Atrium
// running elsewhere, pass its URL as baseUrl and no `fetch`.
const serverApi = (credentials) =>
  createAtriumClient({ baseUrl: "http://atrium", ...credentials, fetch: (url, init) => atrium.fetch(new Request(url, init)) })

// The API key this backend calls Atrium with. A real host keeps it in its secrets; the demo makes a
// workspace at its first start and keeps the key beside the database.
const keyFile = process.env.KEY_FILE ?? `${dbFile}.key.json`
if (!existsSync(keyFile)) {
  const created = await orThrow(serverApi().workspaceCreate({ ownerEmail: "demo@example.com" }))
  const [apiKey, { authToken }] = Object.entries(created.data.apiKeyList)[0]
  writeFileSync(keyFile, JSON.stringify({ apiKey, authToken }), { mode: 0o600 })
}
const backend = serverApi(JSON.parse(readFileSync(keyFile, "utf8")))

// The document and the users' grants on it, written at every start (each call updates what exists).
await orThrow(backend.organizationsAdd({ organizations: [{ organizationId, organizationName: "Acme" }] }))
await orThrow(backend.organizationsDocumentsAddV1({ organizationId, documents: [{ documentId, documentName: "Spec 42" }] }))
await orThrow(backend.usersAdd({ organizationId, documentId, users: Object.entries(users).map(([userId, user]) => ({ userId, ...user })) }))

// The host's token endpoint. A real one takes the user from the host's own session; this demo's
// login is `?user=`. The token names the user; the grants above decide what the user may do.
const tokenFor = async (userId) => {
  const { name, email } = users[userId]
  const { result, error } = await backend.authGenerateToken({ userId, userProperties: { name, email }, permissions: { resources: [] } })
  return error ? { status: 502, body: `${error.status}: ${error.message}` } : { status: 200, body: result.data.token }
}

const files = {
  "/": [new URL("public/index.html", import.meta.url), "text/html"],
  "/app.js": [new URL("public/app.js", import.meta.url), "text/javascript"],
  // @atrium/browser as built: one ES module that imports nothing (a bundler would take it from node_modules).
  "/atrium-browser.js": [new URL(import.meta.resolve("@atrium/browser")), "text/javascript"]
}

const api = toNodeListener(atrium)
const server = createServer(async (req, res) => {
  const { pathname, searchParams } = new URL(req.url, "http://localhost")
  if (req.method === "GET" && Object.hasOwn(files, pathname)) {
    const [file, type] = files[pathname]
    return res.writeHead(200, { "content-type": `${type}; charset=utf-8` }).end(readFileSync(file))
  }
  if (req.method === "POST" && pathname === "/token") {
    const userId = searchParams.get("user")
    if (!Object.hasOwn(users, userId)) return res.writeHead(404).end("No such demo user.")
    const { status, body } = await tokenFor(userId)
    return res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(body)
  }
  api(req, res) // Atrium, on this origin: the page's calls to /v2/client/… need no CORS
})
// The realtime WebSocket (/v2/client/realtime) on the same server: presence, live changes, notifications.
const realtime = attachRealtime(server, atrium)

server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  console.log(`example listening on http://127.0.0.1:${server.address().port}`)
})
process.once("SIGTERM", async () => {
  await realtime.close()
  server.close(() => atrium.dispose().then(() => process.exit(0)))
})
