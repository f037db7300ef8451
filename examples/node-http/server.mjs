// Atrium under /collab on a node:http server that also has routes of its own.
// Run: pnpm --filter @atrium/example-node-http start   (PORT, DB_FILE)
import { createAtrium } from "@atrium/core"
import { toNodeListener } from "@atrium/node-http"
import { SqliteStorage } from "@atrium/sql-sqlite"
import { createServer } from "node:http"

const atrium = createAtrium({ storage: SqliteStorage.layer({ filename: process.env.DB_FILE ?? ".data/example.db" }) })
const collab = toNodeListener(atrium, { basePath: "/collab" })

const server = createServer((req, res) => {
  if (req.url === "/hello") return res.end("hello from the host app\n")
  collab(req, res)
})

server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  console.log(`example listening on http://127.0.0.1:${server.address().port}`)
})
process.once("SIGTERM", () => server.close(() => atrium.dispose().then(() => process.exit(0))))
