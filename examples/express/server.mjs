// Atrium under /collab in an Express 5 app that also has routes and a body parser of its own.
// Run: pnpm --filter @atrium/example-express start   (PORT, DATABASE_URL)
import { createAtrium } from "@atrium/core"
import { atrium as mountAtrium } from "@atrium/express"
import { PgStorage } from "@atrium/sql-pg"
import express from "express"

const atrium = createAtrium({
  storage: PgStorage.layer({ url: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" })
})

const app = express()
// The host's JSON parser runs first, on every path; Atrium rebuilds the body from req.body.
// Its limit is above Atrium's 1 MiB so that Atrium's own limit decides under /collab.
app.use(express.json({ limit: "2mb" }))
app.get("/hello", (_req, res) => res.send("hello from the host app\n"))
app.use("/collab", mountAtrium(atrium))

const server = app.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  console.log(`example listening on http://127.0.0.1:${server.address().port}`)
})
process.once("SIGTERM", () => server.close(() => atrium.dispose().then(() => process.exit(0))))
