/**
 * The test clients check every success against its operation's output schema; this is the
 * check itself, on a real answer (workspace/create) and copies of it bent in each way a
 * handler could drift from its schema.
 */
import { describe, expect, it } from "vitest"
import { directClient, MemoryStorage, testAtrium } from "../../src/testing/index.js"
import { assertOutputMatches, outputMismatch } from "../../src/testing/OutputCheck.js"

const atrium = testAtrium(MemoryStorage)
const answer = await directClient(atrium).post("/v2/workspace/create", { ownerEmail: "check@example.com" })
const path = "/v2/workspace/create"
const bent = (change: (data: Record<string, unknown>) => void) => {
  const body = structuredClone(answer.body)
  change(body.result.data)
  return body
}

describe("output check", () => {
  it("passes a real answer, also under a mount prefix and with a query string", () => {
    expect(answer.status).toBe(200)
    expect(outputMismatch(path, 200, answer.body)).toBeUndefined()
    expect(outputMismatch(`/collab${path}?x=1`, 200, answer.body)).toBeUndefined()
  })

  it("refuses a field the schema does not declare", () => {
    const mismatch = outputMismatch(path, 200, bent((data) => (data.surprise = 1)))
    expect(mismatch).toContain("surprise")
  })

  it("refuses a declared field that is missing", () => {
    expect(outputMismatch(path, 200, bent((data) => delete data.id))).toContain("id")
  })

  it("refuses a value of another type", () => {
    expect(outputMismatch(path, 200, bent((data) => (data.id = 42)))).toContain("id")
  })

  it("leaves errors, non-operation paths and non-envelopes alone", () => {
    const wrong = bent((data) => (data.id = 42))
    expect(outputMismatch(path, 400, wrong)).toBeUndefined()
    expect(outputMismatch("/healthz", 200, wrong)).toBeUndefined()
    expect(outputMismatch(path, 200, { keys: [] })).toBeUndefined()
  })

  it("throws with the path and the mismatch", () => {
    expect(() => assertOutputMatches(path, 200, bent((data) => (data.surprise = 1)))).toThrow(
      /answer to \/v2\/workspace\/create \(status 200\) does not match[\s\S]*surprise/
    )
  })
})
