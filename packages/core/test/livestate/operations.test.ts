/**
 * livestate/broadcast (the hosted service's `/v2/livestate/broadcast`, v1 too) through the server
 * API on every storage: the hosted answer, the live state kept per document and liveStateDataId
 * (replaced, or shallow-merged with `merge`), its 64 KB cap (on what is sent and on what a merge
 * leaves), malformed bodies, and a disabled organization. That subscribers receive it:
 * test/realtime/broadcast.test.ts.
 */
import type { TestCredentials } from "@atrium/core/testing"
import * as Effect from "effect/Effect"
import { expect, it } from "vitest"
import { LiveStateRepo } from "@atrium/core"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { MAX_LIVE_STATE_BYTES } from "../../src/livestate/LiveStateSchemas.js"

const where = { organizationId: "org", documentId: "doc", liveStateDataId: "board" }

/** No operation reads a live state: it is read through the repository, on the runtime the calls use. */
const stored = (started: Started, creds: TestCredentials, liveStateDataId = where.liveStateDataId) =>
  started.atrium.runtime.runPromise(Effect.flatMap(LiveStateRepo, (repo) => repo.find({ apiKey: creds.apiKey, ...where, liveStateDataId })))
    .then((row) => row === undefined ? undefined : { data: JSON.parse(row.data), version: row.version })

/** `{"t":"xx…"}` of exactly `bytes` bytes as JSON. */
const ofBytes = (bytes: number) => ({ t: "x".repeat(bytes - 8) })

forEachBackend("livestate/broadcast", (ctx) => {
  it("answers as the hosted service, on v2 and v1, and keeps the data as the live state's next version", async () => {
    const started = ctx()
    const creds = await started.workspace()
    const sent = await started.client.post("/v2/livestate/broadcast", { ...where, data: { cursor: { x: 1 }, tool: "pen" } }, creds.headers)
    expect(sent.status, sent.text).toBe(200)
    expect(sent.body).toEqual({ result: { status: "success", message: "Event broadcasted successfully.", data: { success: true } } })
    expect(await stored(started, creds)).toEqual({ data: { cursor: { x: 1 }, tool: "pen" }, version: 1 })
    const v1 = await started.client.post("/v1/livestate/broadcast", { ...where, data: { tool: "eraser" }, merge: false }, creds.headers)
    expect(v1.body).toEqual(sent.body)
    // merge false (the default) replaces the whole.
    expect(await stored(started, creds)).toEqual({ data: { tool: "eraser" }, version: 2 })
    expect(await stored(started, creds, "other")).toBeUndefined()
  })

  it("merge sets the data's keys over the last data, a shallow merge; with nothing kept yet it is the data", async () => {
    const started = ctx()
    const creds = await started.workspace()
    const post = (data: unknown) => started.client.post("/v2/livestate/broadcast", data, creds.headers)
    expect((await post({ ...where, data: { a: 1, nested: { x: 1, y: 2 } }, merge: true })).status).toBe(200)
    expect(await stored(started, creds)).toEqual({ data: { a: 1, nested: { x: 1, y: 2 } }, version: 1 })
    expect((await post({ ...where, data: { b: 2, nested: { x: 9 }, a: null }, merge: true })).status).toBe(200)
    // A nested object is replaced, not merged; null is a value like any other.
    expect(await stored(started, creds)).toEqual({ data: { a: null, nested: { x: 9 }, b: 2 }, version: 2 })
    expect((await post({ ...where, data: { c: 3 } })).status).toBe(200)
    expect(await stored(started, creds)).toEqual({ data: { c: 3 }, version: 3 })
  })

  it("50 merges at once into one live state: every one answered 200, none lost, each a version of its own", async () => {
    const started = ctx()
    const creds = await started.workspace()
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      started.client.post("/v2/livestate/broadcast", { ...where, data: { [`k${i}`]: i }, merge: true }, creds.headers)))
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200))
    expect(await stored(started, creds)).toEqual({ data: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])), version: 50 })
  })

  it(`takes data up to ${MAX_LIVE_STATE_BYTES} bytes as JSON; a byte more, or a merge that would leave more, is refused and nothing is written`, async () => {
    const started = ctx()
    const creds = await started.workspace()
    const post = (data: unknown) => started.client.post("/v2/livestate/broadcast", data, creds.headers)
    const over = await post({ ...where, data: ofBytes(MAX_LIVE_STATE_BYTES + 1) })
    expect(over.status).toBe(400)
    expect(over.body.error).toMatchObject({ status: "INVALID_ARGUMENT", message: `Invalid data.data: must be at most ${MAX_LIVE_STATE_BYTES} bytes of JSON` })
    expect(await stored(started, creds)).toBeUndefined()
    // Bytes, not characters: 2 bytes each.
    const wide = await post({ ...where, data: { t: "é".repeat(MAX_LIVE_STATE_BYTES / 2) } })
    expect(wide.body.error.message).toBe(`Invalid data.data: must be at most ${MAX_LIVE_STATE_BYTES} bytes of JSON`)
    expect((await post({ ...where, data: ofBytes(MAX_LIVE_STATE_BYTES) })).status).toBe(200)
    expect((await stored(started, creds))?.version).toBe(1)

    const merged = await post({ ...where, data: { more: 1 }, merge: true })
    expect(merged.status).toBe(400)
    expect(merged.body.error).toMatchObject({
      status: "INVALID_ARGUMENT",
      message: `Live state board merged with this data would be ${MAX_LIVE_STATE_BYTES + 9} bytes of JSON: at most ${MAX_LIVE_STATE_BYTES}.`
    })
    expect(await stored(started, creds)).toEqual({ data: ofBytes(MAX_LIVE_STATE_BYTES), version: 1 })
  })

  it("refuses malformed bodies, naming the field", async () => {
    const started = ctx()
    const creds = await started.workspace()
    const refusal = async (data: unknown) => {
      const answer = await started.client.post("/v2/livestate/broadcast", data, creds.headers)
      expect(answer.status, answer.text).toBe(400)
      expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
      return answer.body.error.message as string
    }
    const { liveStateDataId: _, ...withoutId } = where
    expect(await refusal({ ...withoutId, data: {} })).toBe("Invalid data.liveStateDataId: is missing")
    expect(await refusal({ ...where })).toBe("Invalid data.data: is missing")
    expect(await refusal({ ...where, liveStateDataId: "" })).toBe("Invalid data.liveStateDataId: must not be empty")
    expect(await refusal({ ...where, data: [1, 2] })).toBe("Invalid data.data: Expected { readonly [x: string]: unknown }, actual [1,2]")
    expect(await refusal({ ...where, data: null })).toBe("Invalid data.data: Expected { readonly [x: string]: unknown }, actual null")
    expect(await refusal({ ...where, data: {}, merge: "yes" })).toBe("Invalid data.merge: Expected boolean, actual \"yes\"")
    expect(await refusal({ ...where, data: {}, userId: "u1" })).toBe("Invalid data.userId: is not a known parameter")
    expect(await stored(started, creds)).toBeUndefined()
  })

  it("refuses a disabled organization's document, and writes nothing", async () => {
    const started = ctx()
    const creds = await started.workspace()
    const { client } = started
    await client.post("/v2/organizations/add", { organizations: [{ organizationId: "org" }] }, creds.headers)
    await client.post("/v2/livestate/broadcast", { ...where, data: { n: 1 } }, creds.headers)
    await client.post("/v2/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: true }, creds.headers)
    const refused = await client.post("/v2/livestate/broadcast", { ...where, data: { n: 2 } }, creds.headers)
    expect(refused.status).toBe(403)
    expect(refused.body.error.status).toBe("PERMISSION_DENIED")
    expect(await stored(started, creds)).toEqual({ data: { n: 1 }, version: 1 })
  })

  it("keeps each API key's live states apart: another key's merge under the same ids starts from nothing", async () => {
    const started = ctx()
    const [a, b] = [await started.workspace(), await started.workspace()]
    await started.client.post("/v2/livestate/broadcast", { ...where, data: { mine: "a" } }, a.headers)
    await started.client.post("/v2/livestate/broadcast", { ...where, data: { theirs: "b" }, merge: true }, b.headers)
    expect(await stored(started, a)).toEqual({ data: { mine: "a" }, version: 1 })
    expect(await stored(started, b)).toEqual({ data: { theirs: "b" }, version: 1 })
  })
})
