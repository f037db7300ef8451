/** What every example's smoke test checks, once the example runs: its own route, Atrium under /collab, nothing outside it. */
import { expect } from "vitest"
import { startServerProcess } from "./ServerProcess.js"

/** What any mounted Atrium must do: create a workspace, add a document and list it, and serve its reference, under `url`. */
export const exerciseAtrium = async (url: string) => {
  const post = (path: string, data: unknown, headers: Record<string, string> = {}) =>
    fetch(url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ data }) })
  const created = await (await post("/v2/workspace/create", { ownerEmail: "example@example.com" })).json()
  expect(created, "workspace/create").toHaveProperty("result.data.apiKeyList")
  const [apiKey, entry] = Object.entries(created.result.data.apiKeyList)[0] as [string, { authToken: string }]
  const auth = { "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken }
  const added = await post("/v1/organizations/documents/add", { organizationId: "o", documents: [{ documentId: "d", documentName: "D" }] }, auth)
  expect(added.status).toBe(200)
  const listed = await post("/v2/organizations/documents/get", { organizationId: "o" }, auth)
  expect(listed.status).toBe(200)
  expect((await listed.json()).result.data).toMatchObject([{ id: "d", documentName: "D" }])
  // The API reference under the mount path, its script from the installed @atrium/core.
  expect((await fetch(`${url}/docs`)).headers.get("content-type"), "GET /docs").toBe("text/html; charset=utf-8")
  const script = await fetch(`${url}/docs/redoc.standalone.js`)
  expect(script.status, "Redoc's script").toBe(200)
  expect((await script.text()).length, "Redoc's script").toBeGreaterThan(500_000)
}

/** Starts `<exampleDir>/server.mjs` on an ephemeral port with `env`, runs the checks, stops it with SIGTERM (exit code 0). */
export const smokeExample = async (exampleDir: string, env: Readonly<Record<string, string>>) => {
  const server = await startServerProcess(["server.mjs"], { cwd: exampleDir, env: { ...process.env, PORT: "0", ...env } })
  const { url } = server
  expect(await (await fetch(`${url}/hello`)).text()).toBe("hello from the host app\n")
  await exerciseAtrium(`${url}/collab`)
  // Outside the mount: not found (the host's 404, or node-http's own when it has no `next`).
  const outside = await fetch(`${url}/v2/organizations/documents/get`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
  expect(outside.status).toBe(404)
  expect(await server.stop()).toBe(0)
}
