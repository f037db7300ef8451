/** Boots the example as its own process on a SQLite file, creates a workspace through the API, lists documents, stops it. */
import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"

const dir = mkdtempSync(join(tmpdir(), "atrium-example-fastify-"))
let child: ChildProcess | undefined
afterAll(() => {
  if (child?.exitCode === null) child.kill("SIGKILL")
  rmSync(dir, { recursive: true, force: true })
})

it("serves the host's route and Atrium under /collab, and stops on SIGTERM", async () => {
  const server = spawn(process.execPath, ["server.mjs"], {
    cwd: join(__dirname, ".."),
    env: { ...process.env, PORT: "0", DB_FILE: join(dir, "example.db") }
  })
  child = server
  let output = ""
  const url = await new Promise<string>((resolve, reject) => {
    server.stderr.on("data", (chunk) => (output += chunk))
    server.once("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)))
    server.stdout.on("data", (chunk) => {
      output += chunk
      const match = /listening on (\S+)/.exec(output)
      if (match) resolve(match[1]!)
    })
  })
  expect(await (await fetch(`${url}/hello`)).text()).toBe("hello from the host app\n")
  const post = (path: string, data: unknown, headers: Record<string, string> = {}) =>
    fetch(url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ data }) })
  const created = await (await post("/collab/v2/workspace/create", { ownerEmail: "example@example.com" })).json()
  const [apiKey, entry] = Object.entries(created.result.data.apiKeyList)[0] as [string, { authToken: string }]
  const auth = { "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken }
  const added = await post("/collab/v1/organizations/documents/add", { organizationId: "o", documents: [{ documentId: "d", documentName: "D" }] }, auth)
  expect(added.status).toBe(200)
  const listed = await post("/collab/v2/organizations/documents/get", { organizationId: "o" }, auth)
  expect(listed.status).toBe(200)
  expect((await listed.json()).result.data).toMatchObject([{ id: "d", documentName: "D" }])
  expect((await post("/v2/organizations/documents/get", {})).status).toBe(404)
  const exit = new Promise((resolve) => server.once("exit", resolve))
  server.kill("SIGTERM")
  expect(await exit).toBe(0)
})
