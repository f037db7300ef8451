/**
 * A server that dies takes its users' presence with it (issue 25): two `atrium serve` processes on
 * one PostgreSQL database, a user on each; the second is killed with SIGKILL (no goodbye to its
 * sockets, nothing released), and the first server's user is told the other left within 30 s, as
 * the expiry of entries no server renews (docs/realtime.md, "Presence"). An entry written through
 * the server API, which nobody renews, goes the same way.
 */
import { createTestWorkspace, httpClient } from "@atrium/core/testing"
import { testDatabase } from "@atrium/sql-pg/testing"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { openSocket } from "../../../test-support/RealtimeClient.js"
import { killServerProcesses, startServerProcess } from "../../../test-support/ServerProcess.js"

const cli = join(__dirname, "..", "dist", "cli.js")
afterAll(killServerProcesses)

it("a killed server's users, and presence the server API wrote, leave the others' presence within 30 s", { timeout: 90_000 }, async (test) => {
  const db = await testDatabase()
  if (db.server.startsWith("PGlite")) {
    await db.drop()
    return test.skip()
  }
  const start = () => startServerProcess([cli, "serve"], { env: { ...process.env, DATABASE_URL: db.url, PORT: "0", HOST: "127.0.0.1" } })
  const [survivor, doomed] = [await start(), await start()]
  try {
    const creds = await createTestWorkspace(httpClient(survivor.url))
    const where = { organizationId: "acme", documentId: "board" }
    const enter = async (url: string, userId: string) => {
      const answer = await httpClient(url).post("/v2/auth/generate_token", { userId, userProperties: { name: userId, email: `${userId}@example.com` }, permissions: { resources: [] } }, creds.headers)
      const socket = await openSocket(`${url.replace("http", "ws")}/v2/client/realtime?token=${answer.body.result.data.token}`)
      socket.send({ type: "subscribe", ...where })
      await socket.next((m) => m.type === "subscribed")
      return socket
    }
    const ann = await enter(survivor.url, "ann")
    await enter(doomed.url, "bob")
    await ann.next((m) => m.type === "presence" && m.userId === "bob")
    expect((await httpClient(survivor.url).post("/v2/presence/add", { ...where, users: [{ userId: "hal" }] }, creds.headers)).status).toBe(200)
    await ann.next((m) => m.type === "presence" && m.userId === "hal")

    const killedAt = Date.now()
    await doomed.stop("SIGKILL")
    const leftAfter = async (userId: string) => {
      for (;;) {
        const left = ann.received.findIndex((m) => m.type === "presence.leave" && m.userId === userId)
        if (left >= 0) return Date.now() - killedAt
        if (Date.now() - killedAt > 40_000) {
          throw new Error(`${userId} never left; received ${JSON.stringify(ann.received).slice(0, 300)}; the server said ${survivor.output().slice(-1_500)}`)
        }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    const [bob, hal] = await Promise.all([leftAfter("bob"), leftAfter("hal")])
    expect(bob).toBeLessThanOrEqual(30_000)
    expect(hal).toBeLessThanOrEqual(30_000)
    const token = (await httpClient(survivor.url).post("/v2/auth/generate_token", { userId: "ann", userProperties: { name: "ann", email: "ann@example.com" }, permissions: { resources: [] } }, creds.headers)).body.result.data.token
    const listed = await httpClient(survivor.url).post("/v2/client/presence/get", where, { authorization: `Bearer ${token}` })
    expect(listed.body.result.data.map((p: { userId: string }) => p.userId)).toEqual(["ann"])
    ann.ws.close()
  } finally {
    await survivor.stop()
    await doomed.stop("SIGKILL")
    await db.drop()
  }
})
