/**
 * The client's conveniences against a real Atrium behind node:http (issue 27): a 429 sent again
 * after its Retry-After (and not when the wait is too long or retries are off), `pages` reading a
 * paged operation to its end, and `verifyWebhook` checking a real delivery as `standardwebhooks`
 * does, refusing a changed body, an old delivery and another secret.
 */
import { createServer, type IncomingMessage } from "node:http"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listen } from "../../../test-support/backends.js"
import { type HttpAtrium, serveAtrium } from "../../../test-support/HttpAtrium.js"
import { type AtriumClient, createAtriumClient, orThrow, verifyWebhook, WebhookVerificationError } from "../src/index.js"

/** A client of a new workspace on `running`, counting the requests it sends. */
const workspaceClient = async (running: HttpAtrium, email: string) => {
  const sent = { count: 0 }
  const counting: typeof fetch = (input, init) => {
    sent.count++
    return fetch(input, init)
  }
  const created = await orThrow(createAtriumClient({ baseUrl: running.url }).workspaceCreate({ ownerEmail: email }))
  const [apiKey, entry] = Object.entries(created.data.apiKeyList)[0]!
  const client = createAtriumClient({ baseUrl: running.url, apiKey, authToken: entry.authToken, fetch: counting })
  return { client, sent }
}

describe("@atrium/client retries", () => {
  let running: HttpAtrium
  beforeAll(async () => {
    // Two requests a second per API key: the third in a second is answered 429 with Retry-After 1.
    running = await serveAtrium("sqlite", { options: { rateLimits: { perApiKey: { limit: 2, windowMillis: 1000 } } } })
  })
  afterAll(() => running?.stop())

  /** Two calls that use up the key's second; the next is refused until the window turns. */
  const exhaust = async (client: AtriumClient) => {
    for (let i = 0; i < 2; i++) await client.organizationsGet({})
  }

  it("sends a call refused 429 again after the server's Retry-After, and it succeeds", async () => {
    const { client, sent } = await workspaceClient(running, "retry@example.com")
    await exhaust(client)
    const before = sent.count
    const started = performance.now()
    const outcome = await client.organizationsGet({})
    expect(outcome.error).toBeUndefined()
    expect(sent.count - before).toBeGreaterThanOrEqual(2)
    // It waited for the window to turn (Retry-After: 1), not less.
    expect(performance.now() - started).toBeGreaterThan(300)
  })

  it("answers the 429 at once with retry: false, or when the wait is longer than maxDelayMillis", async () => {
    const { client, sent } = await workspaceClient(running, "noretry@example.com")
    await exhaust(client)
    const before = sent.count
    const refused = await client.withOptions({ retry: false }).organizationsGet({})
    expect(refused.error).toMatchObject({ status: "RESOURCE_EXHAUSTED", httpStatus: 429, retryAfterSeconds: 1 })
    const impatient = await client.withOptions({ retry: { maxDelayMillis: 100 } }).organizationsGet({})
    expect(impatient.error).toMatchObject({ status: "RESOURCE_EXHAUSTED", retryAfterSeconds: 1 })
    expect(sent.count - before).toBe(2)
  })

  it("stops waiting when the call's signal aborts, as CANCELLED", async () => {
    const { client } = await workspaceClient(running, "abort@example.com")
    await exhaust(client)
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const started = performance.now()
    const outcome = await client.organizationsGet({}, { signal: controller.signal })
    expect(outcome.error).toMatchObject({ status: "CANCELLED" })
    expect(performance.now() - started).toBeLessThan(900)
  })
})

describe("@atrium/client pages and verifyWebhook", () => {
  let running: HttpAtrium
  let client: AtriumClient
  beforeAll(async () => {
    running = await serveAtrium("sqlite", { options: { allowPrivateNetworks: true } })
    client = (await workspaceClient(running, "pages@example.com")).client
  })
  afterAll(() => running?.stop())

  it("reads every page of a paged operation, first to last, passing each next token", async () => {
    const ids = Array.from({ length: 7 }, (_, i) => `org-${i}`)
    await orThrow(client.organizationsAdd({ organizations: ids.map((organizationId) => ({ organizationId })) }))
    const pages = []
    for await (const page of client.pages("organizationsGet", { pageSize: 3 })) pages.push(page.data.map((organization) => organization.id))
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1])
    expect(pages.flat().sort()).toEqual(ids)
  })

  it("has every method grouped by resource too, answering as the flat one", async () => {
    const grouped = await orThrow(client.organizations.get({ organizationIds: ["org-0"] }))
    expect(grouped).toEqual(await orThrow(client.organizationsGet({ organizationIds: ["org-0"] })))
    const v1 = await client.v1.organizations.documents.add({ organizationId: "org-0", documents: [{ documentId: "d-v1", documentName: "V1" }] })
    expect(v1.error).toBeUndefined()
    // Both the method and the group beneath it: users/data/delete and users/data/delete/status.
    expect(typeof client.users.data.delete).toBe("function")
    expect(typeof client.users.data.delete.status).toBe("function")
  })

  it("throws a page's error from the loop", async () => {
    const iterate = async () => {
      for await (const _ of client.pages("organizationsGet", { pageSize: "many" } as never)) void _
    }
    await expect(iterate()).rejects.toMatchObject({ name: "AtriumError", status: "INVALID_ARGUMENT" })
  })

  it("verifies a real delivery as standardwebhooks does, and refuses a changed body, an old one and another secret", async () => {
    const received: Array<{ body: string; headers: IncomingMessage["headers"] }> = []
    const receiver = createServer((req, res) => {
      let body = ""
      req.on("data", (chunk) => (body += chunk))
      req.on("end", () => {
        received.push({ body, headers: req.headers })
        res.end("ok")
      })
    })
    const receiverUrl = await listen(receiver)
    try {
      await orThrow(client.workspaceAdvancedwebhookconfigUpdate({ isEnabled: true }))
      const endpoint = await orThrow(client.workspaceAdvancedwebhookEndpointsCreate({ url: `${receiverUrl}/hook` }))
      const { secret } = (await orThrow(client.workspaceAdvancedwebhookEndpointsSecretGet({ endpointId: endpoint.data.id }))).data
      await orThrow(client.activitiesAdd({
        organizationId: "org-0",
        documentId: "doc",
        activities: [{ featureType: "comment", actionType: "add", actionUser: { userId: "u1" } }]
      }))
      await running.atrium.runDue()
      expect(received).toHaveLength(1)
      const [{ body, headers }] = received as [typeof received[number]]

      const event = await verifyWebhook({ secret, body, headers })
      expect(event).toEqual(new Webhook(secret).verify(body, headers as Record<string, string>))
      expect(event).toMatchObject({ event: "comment.add", source: "comment", actionType: "add", webhookId: headers["webhook-id"] })
      // Bytes and a fetch Headers work the same.
      const asHeaders = new Headers(Object.entries(headers).map(([name, value]): [string, string] => [name, String(value)]))
      expect(await verifyWebhook({ secret, body: new TextEncoder().encode(body), headers: asHeaders })).toEqual(event)

      await expect(verifyWebhook({ secret, body: body.replace("comment", "kommentar"), headers })).rejects.toThrow(WebhookVerificationError)
      await expect(verifyWebhook({ secret, body, headers, now: Date.now() + 10 * 60_000 })).rejects.toThrow(/more than 300 s from now/)
      const other = "whsec_" + btoa("another secret of thirty-two bytes!")
      await expect(verifyWebhook({ secret: other, body, headers })).rejects.toThrow(/No signature matches/)
      await expect(verifyWebhook({ secret, body, headers: {} })).rejects.toThrow(/Missing webhook-id/)
    } finally {
      await new Promise((resolve) => receiver.close(resolve))
    }
  })
})
