/**
 * An embedded Atrium without a delivery worker (createAtrium's runDeliveries off) says so in its
 * log the first time a webhook delivery is queued, once a process (issue 27: webhooks that
 * silently never left); one with the worker says nothing of the kind.
 */
import { type AtriumHandler, createAtrium, Ids } from "@atrium/core"
import * as Logger from "effect/Logger"
import { afterEach, describe, expect, it } from "vitest"
import { UNDELIVERED_WARNING } from "../../src/deliveries/DeliverySignal.js"
import { createTestWorkspace, directClient, MemoryStorage, type TestCredentials } from "../../src/testing/index.js"

const BASE = "/v2/workspace/advancedwebhook"

describe("a queued delivery with no worker in the process", () => {
  const opened: Array<AtriumHandler> = []
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((atrium) => atrium.dispose()))
  })

  /** An Atrium whose log lines are kept; advanced webhooks on with one endpoint; `changes` activities written. */
  const run = async (runDeliveries: boolean, changes: number) => {
    const lines: Array<{ level: string; message: string }> = []
    const logger = Logger.replace(Logger.defaultLogger, Logger.make(({ logLevel, message }) => {
      lines.push({ level: logLevel.label, message: (Array.isArray(message) ? message : [message]).join(" ") })
    }))
    const atrium = createAtrium({ storage: MemoryStorage, ids: Ids.Sequential, runDeliveries, logger, options: { allowPrivateNetworks: true } })
    opened.push(atrium)
    const client = directClient(atrium)
    const creds: TestCredentials = await createTestWorkspace(client)
    const ok = async (path: string, data: unknown) => {
      const answer = await client.post(path, data, creds.headers)
      expect(answer.status, `${path}: ${answer.text}`).toBe(200)
    }
    await ok("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
    // Nothing listens there: the attempts fail, which is not what is tested.
    await ok(`${BASE}/endpoints/create`, { url: "http://127.0.0.1:9/hook" })
    for (let i = 0; i < changes; i++) {
      await ok("/v2/activities/add", {
        organizationId: "org",
        documentId: "doc",
        activities: [{ featureType: "comment", actionType: "add", actionUser: { userId: `u${i}` } }]
      })
    }
    return lines.filter((line) => line.message === UNDELIVERED_WARNING)
  }

  it("is said once, as a warning that names what to do", async () => {
    const said = await run(false, 3)
    expect(said).toEqual([{ level: "WARN", message: UNDELIVERED_WARNING }])
    expect(UNDELIVERED_WARNING).toContain("runDeliveries: true")
    expect(UNDELIVERED_WARNING).toContain("atrium worker")
    expect(UNDELIVERED_WARNING).toContain("runDue()")
  })

  it("is not said where a worker delivers", async () => {
    expect(await run(true, 2)).toEqual([])
  })
})
