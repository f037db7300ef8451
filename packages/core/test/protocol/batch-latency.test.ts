/**
 * No allowed request holds the server (issue 21). SQLite runs synchronously in the server's one
 * thread, so while one call works no other is answered: each heavy kind of call is sent at the
 * largest its schema allows (the caps: docs/protocol.md, "Limits"), to SQLite behind a real
 * node:http server, and GET /healthz is asked again and again meanwhile, the first probe sent
 * with the batch. The worst probe must answer within 200 ms, the bound; at the caps a
 * batch takes about 20 to 60 ms of CPU here (docs/benchmarks.md, "Largest batches"). A machine busy
 * with other work can stretch one round, so a kind gets three rounds and passes when one of them
 * does; a cap that lets a call work 200 ms fails all three. bench/batches.mjs measures the same.
 */
import { JobRunner } from "@atrium/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backendNamed, type Started } from "../../../../test-support/backends.js"
import { capsOf, largestBatches, type Post, prepareLargestBatches } from "../../../../test-support/largestBatches.mjs"
import { type Receiver, startReceiver } from "../../../../test-support/receiver.js"
import { operations } from "../../src/operations.js"
import { listCaps } from "../../src/protocol/ListCaps.js"
import type { TestCredentials } from "../../src/testing/index.js"

const BOUND_MILLIS = 200
const ROUNDS = 3

const range = <A>(n: number, f: (i: number) => A) => Array.from({ length: n }, (_, i) => f(i))
const kinds = largestBatches(capsOf(operations, listCaps))

describe("/healthz while the largest allowed batch of each heavy kind runs [sqlite over node-http]", () => {
  let started: Started
  let creds: TestCredentials
  let receiver: Receiver
  const post: Post = async (path, data) => {
    const answer = await started.client.post(path, data, creds.headers)
    if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${answer.text.slice(0, 300)}`)
    return answer.body
  }
  const probe = async () => {
    const t0 = performance.now()
    const answer = await started.client.raw({ method: "GET", path: "/healthz" })
    expect(answer.status).toBe(200)
    return performance.now() - t0
  }
  /** The worst /healthz probe while `running` runs, asked one at a time, the first at once. */
  const worstProbeWhile = async (running: Promise<unknown>) => {
    let settled = false
    const done = running.finally(() => (settled = true))
    let worst = 0
    do worst = Math.max(worst, await probe())
    while (!settled)
    await done
    return worst
  }
  /** Up to ROUNDS rounds: each round's worst probe, until one is within the bound. */
  const measure = async (round: (r: string) => Promise<unknown>, prepare?: (r: string) => Promise<unknown>) => {
    const worst: Array<number> = []
    for (let r = 0; r < ROUNDS && !worst.some((ms) => ms < BOUND_MILLIS); r++) {
      const tag = `r${r}${Math.random().toString(36).slice(2, 6)}`
      await prepare?.(tag)
      worst.push(await worstProbeWhile(round(tag)))
    }
    return worst
  }

  beforeAll(async () => {
    started = await backendNamed("sqlite over node-http").start()
    creds = await started.workspace()
    // Advanced webhooks on, one endpoint taking every event: each change records its messages too.
    receiver = await startReceiver()
    await post("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
    await post("/v2/workspace/advancedwebhook/endpoints/create", { url: receiver.url })
    await prepareLargestBatches(post)
    // Warm: the first calls of a process compile its code.
    for (const [k, kind] of kinds.entries()) {
      await kind.setup?.(post, `warm${k}`)
      await post(kind.path, kind.data(`warm${k}`))
    }
  }, 120_000)
  afterAll(async () => {
    await started?.stop()
    await receiver?.close()
  })

  it(`a /healthz probe sent meanwhile is answered within ${BOUND_MILLIS} ms, whatever it waits behind`, async () => {
    const baseline = await measure(() => new Promise((resolve) => setTimeout(resolve, 100)))
    expect(baseline[0]).toBeLessThan(BOUND_MILLIS)
  })

  for (const kind of kinds) {
    it(`${kind.name}`, async () => {
      const worst = await measure((r) => post(kind.path, kind.data(r)), kind.setup && ((r) => kind.setup!(post, r)))
      expect(Math.min(...worst), `worst /healthz of each round: ${worst.map((ms) => ms.toFixed(0)).join(", ")} ms`).toBeLessThan(BOUND_MILLIS)
    }, 60_000)
  }

  it("the tasks of a deletion of 100 users in 100 organizations (1,000 tasks), run back to back", async () => {
    const worst = await measure(
      // The job's tasks only: the webhook deliveries the batches above left are not this test's.
      () => started.atrium.runtime.runPromise(JobRunner.runDue("latency-test")),
      (r) => post("/v2/users/data/delete", { userIds: range(100, (i) => `${r}-u${i}`), organizationIds: range(100, (i) => `${r}-o${i}`) })
    )
    expect(Math.min(...worst), `worst /healthz of each round: ${worst.map((ms) => ms.toFixed(0)).join(", ")} ms`).toBeLessThan(BOUND_MILLIS)
  }, 120_000)
})
