/** Boots the example as its own process on a fresh PostgreSQL database, uses it, stops it with SIGTERM. */
import { testDatabase } from "@atrium/sql-pg/testing"
import { join } from "node:path"
import { afterAll, it } from "vitest"
import { smokeExample } from "../../../test-support/ExampleSmoke.js"
import { killServerProcesses } from "../../../test-support/ServerProcess.js"

const db = await testDatabase()
afterAll(async () => {
  killServerProcesses()
  await db.drop()
})

it("serves the host's route and Atrium under /collab behind express.json(), and stops on SIGTERM", () =>
  smokeExample(join(__dirname, ".."), { DATABASE_URL: db.url }))
