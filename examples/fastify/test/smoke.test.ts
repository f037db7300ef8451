/** Boots the example as its own process on a SQLite file, uses it, stops it with SIGTERM. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, it } from "vitest"
import { smokeExample } from "../../../test-support/ExampleSmoke.js"
import { killServerProcesses } from "../../../test-support/ServerProcess.js"

const dir = mkdtempSync(join(tmpdir(), "atrium-example-fastify-"))
afterAll(() => {
  killServerProcesses()
  rmSync(dir, { recursive: true, force: true })
})

it("serves the host's route and Atrium under /collab, and stops on SIGTERM", () =>
  smokeExample(join(__dirname, ".."), { DB_FILE: join(dir, "example.db") }))
