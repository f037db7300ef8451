import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { type Receiver, startReceiver } from "../../../../test-support/receiver.js"
import { atriumLayer } from "../../src/Atrium.js"
import { Attempts } from "../../src/deliveries/Attempts.js"
import { Deliveries } from "../../src/deliveries/Deliveries.js"
import { WebhookMessages } from "../../src/deliveries/WebhookMessages.js"
import { makeNodeTransport } from "../../src/ports/NodeTransport.js"
import { MemoryStorage } from "../../src/testing/index.js"
import { WebhookConfigs } from "../../src/webhooks/WebhookConfigs.js"
import { WebhookEndpoints } from "../../src/webhooks/WebhookEndpoints.js"

let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())

const port = () => new URL(receiver.url).port

/** A resolver we control: every name resolves to what the test says, never to the network. */
const resolvingTo = (...addresses: Array<string>) => async () => addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))

const post = (transport: ReturnType<typeof makeNodeTransport>, url: string, timeoutMillis = 2000) =>
  Effect.runPromise(Effect.either(transport.post({ url, headers: { "content-type": "application/json" }, body: "{}", timeoutMillis })))

describe("the guarded transport", () => {
  it("refuses a name that resolves to loopback, and says so", async () => {
    const transport = makeNodeTransport({ allowPrivateNetworks: false, lookup: resolvingTo("127.0.0.1") })
    const before = receiver.received.length
    const result = await post(transport, `http://hooks.example.test:${port()}/hooks`)
    expect(result._tag).toBe("Left")
    if (result._tag === "Left") {
      expect(result.left.reason).toBe("refused")
      expect(result.left.message).toBe("hooks.example.test resolves to 127.0.0.1 (loopback); outgoing calls to it are refused")
    }
    expect(receiver.received.length).toBe(before)
  })

  it("refuses a name when any of its addresses is forbidden (no picking the good one to rebind later)", async () => {
    const transport = makeNodeTransport({ allowPrivateNetworks: false, lookup: resolvingTo("93.184.216.34", "10.0.0.1") })
    const result = await post(transport, "http://mixed.example.test/hooks")
    expect(result._tag === "Left" && result.left.message).toContain("10.0.0.1 (private)")
  })

  it.each([
    ["http://127.0.0.1:1/x", "loopback"],
    ["http://[::1]:1/x", "loopback"],
    ["http://[::ffff:127.0.0.1]:1/x", "loopback (IPv4-mapped)"],
    ["http://169.254.169.254/latest/meta-data", "cloud metadata"],
    ["http://10.0.0.8/x", "private"],
    ["http://100.64.1.1/x", "carrier-grade NAT"],
    ["http://0.0.0.0:1/x", "unspecified"],
    ["http://[fe80::1]/x", "link-local"]
  ])("refuses the literal address in %s", async (url, why) => {
    const transport = makeNodeTransport({ allowPrivateNetworks: false, lookup: resolvingTo("93.184.216.34") })
    const result = await post(transport, url)
    expect(result._tag === "Left" && result.left).toMatchObject({ reason: "refused", message: expect.stringContaining(why) })
  })

  it("connects to the address it checked: a name resolved by our resolver reaches the receiver when private networks are allowed", async () => {
    const transport = makeNodeTransport({ allowPrivateNetworks: true, lookup: resolvingTo("127.0.0.1") })
    const before = receiver.received.length
    const result = await post(transport, `http://hooks.example.test:${port()}/hooks`)
    expect(result).toMatchObject({ _tag: "Right", right: { status: 200 } })
    expect(receiver.received.length).toBe(before + 1)
    expect(receiver.received.at(-1)!.headers.host).toBe(`hooks.example.test:${port()}`)
  })

  it("does not follow redirects, keeps 4 KiB of the answer, and gives up after the timeout", async () => {
    const transport = makeNodeTransport({ allowPrivateNetworks: true })
    receiver.answer = () => ({ status: 302, headers: { location: "http://169.254.169.254/" }, body: "y".repeat(10_000) })
    const redirected = await post(transport, receiver.url)
    expect(redirected).toMatchObject({ _tag: "Right", right: { status: 302 } })
    expect(redirected._tag === "Right" && redirected.right.body.length).toBe(4096)
    receiver.answer = () => ({ status: 200, delayMillis: 500 })
    const slow = await post(transport, receiver.url, 100)
    expect(slow._tag === "Left" && slow.left).toMatchObject({ reason: "timeout", message: "no answer within 100 ms" })
    receiver.answer = () => ({ status: 200 })
    const network = await post(transport, "http://127.0.0.1:1/closed")
    expect(network._tag === "Left" && network.left.reason).toBe("network")
  })
})

describe("a delivery the guard refuses", () => {
  it.effect("is a failed attempt with no status code and an error saying why", () =>
    Effect.gen(function*() {
      yield* WebhookConfigs.update("key", { isEnabled: true })
      yield* WebhookEndpoints.create("key", { url: receiver.url })
      const { messageId } = (yield* WebhookMessages.publish("key", { eventType: "order.paid", payload: {} })).message
      expect(yield* Deliveries.runDue()).toBe(1)
      const [attempt] = (yield* Attempts.list("key", { messageId })).items
      expect(attempt).toMatchObject({
        status: "failed",
        responseStatusCode: 0,
        responseBody: "",
        error: "refused: 127.0.0.1 is loopback; outgoing calls to it are refused"
      })
      expect(attempt!.nextAttemptAt).not.toBeNull()
    }).pipe(Effect.provide(atriumLayer({ storage: MemoryStorage, options: { allowPrivateNetworks: false } }))))
})
