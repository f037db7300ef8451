// Atrium under /collab in a Fastify 5 app that also has routes of its own.
// Run: pnpm --filter @atrium/example-fastify start   (PORT, DB_FILE)
import { createAtrium } from "@atrium/core"
import { atriumPlugin } from "@atrium/fastify"
import { SqliteStorage } from "@atrium/sql-sqlite"
import Fastify from "fastify"

const atrium = createAtrium({ storage: SqliteStorage.layer({ filename: process.env.DB_FILE ?? ".data/example.db" }) })

const app = Fastify()
app.get("/hello", async () => "hello from the host app\n")
// An encapsulated plugin: its body handling stays under /collab, the host's JSON parser everywhere else.
app.register(atriumPlugin, { atrium, prefix: "/collab" })

await app.listen({ port: Number(process.env.PORT ?? 3000), host: "127.0.0.1" })
console.log(`example listening on http://127.0.0.1:${app.server.address().port}`)
process.once("SIGTERM", () => app.close().then(() => atrium.dispose()).then(() => process.exit(0)))
