/**
 * The recorded examples (src/codegen/examples.json: the OpenAPI document's, so the /docs page's)
 * against the operations they show. Every path has one and every example a path; its request's
 * `data` decodes with the operation's input schema as the dispatcher decodes it; its answer decodes
 * with the output schema (an error answer: its status is one the operation declares); and a fresh
 * walk (the one `pnpm docs` records, scripts/walkthrough.mjs) answers every path in the recorded
 * shape. An example recorded before a schema or answer change fails here: run `pnpm docs`.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import { examples } from "../../src/codegen/Examples.js"
import { operations } from "../../src/operations.js"
import { CapturedMail } from "../../src/ports/Mailer.js"
import { makeDecoder } from "../../src/protocol/Decode.js"
import type { OperationExample } from "../../src/protocol/OpenApi.js"
import { errorsOf, type Operation } from "../../src/protocol/Operation.js"
import { createTestWorkspace, directClient, type TestClient, testAtrium } from "../../src/testing/Harness.js"
import { MemoryStorage } from "../../src/testing/MemoryStorage.js"

/** scripts/walkthrough.mjs's `record`: every path's request and answer, walked against `atrium`. */
type RecordWalk = (target: {
  readonly atrium: { readonly runDue: () => Promise<unknown> }
  readonly client: TestClient
  readonly operations: ReadonlyArray<Operation>
}) => Promise<{ readonly [path: string]: OperationExample }>
const walkthroughFile = pathToFileURL(join(__dirname, "..", "..", "..", "..", "scripts", "walkthrough.mjs")).href

const all = operations as ReadonlyArray<Operation>
const operationAt = new Map(all.flatMap((operation) => operation.paths.map((path) => [path, operation] as const)))

const isObject = (value: unknown): value is { readonly [key: string]: unknown } =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Why `example` no longer fits `operation`: its request, its answer. Empty when it fits. */
const mismatchesOf = (operation: Operation, example: OperationExample): Array<string> => {
  const problems: Array<string> = []
  const extra = Object.keys(example.request).filter((key) => key !== "data")
  if (extra.length > 0) problems.push(`the request has ${extra.join(", ")} beside data`)
  const input = makeDecoder(operation.input)(example.request.data)
  if (Either.isLeft(input)) problems.push(`the request: ${input.left.message} ${JSON.stringify(input.left.details ?? {})}`)
  const response = example.response
  if (isObject(response) && "result" in response) {
    const output = Schema.decodeUnknownEither(operation.output, { errors: "all", onExcessProperty: "error" })(response.result)
    if (Either.isLeft(output)) problems.push(`the answer: ${ParseResult.TreeFormatter.formatErrorSync(output.left)}`)
  } else if (isObject(response) && isObject(response.error)) {
    const status = response.error.status
    if (!errorsOf(operation).some((declared) => declared === status)) problems.push(`the answer's error ${String(status)} is not one the operation declares`)
  } else {
    problems.push("the answer is neither {result} nor {error}")
  }
  return problems
}

/** Every place in `value` with its JSON type (`.result.data[].id: string`); array items merge under `[]`. */
const shapeOf = (value: unknown, at = "", into = new Set<string>()): Set<string> => {
  into.add(`${at || "."}: ${value === null ? "null" : Array.isArray(value) ? "array" : typeof value}`)
  if (Array.isArray(value)) for (const item of value) shapeOf(item, `${at}[]`, into)
  else if (isObject(value)) for (const [key, inner] of Object.entries(value)) shapeOf(inner, `${at}.${key}`, into)
  return into
}

/** Where two values differ in shape (keys, JSON types, array items), not in value. */
const shapeDifferences = (recorded: unknown, now: unknown): Array<string> => {
  const before = shapeOf(recorded)
  const after = shapeOf(now)
  return [
    ...[...before].filter((place) => !after.has(place)).map((place) => `recorded only ${place}`),
    ...[...after].filter((place) => !before.has(place)).map((place) => `now only ${place}`)
  ]
}

describe("the recorded examples (run `pnpm docs` when these fail)", () => {
  it("are one for every path of every operation, and none for a path no operation has", () => {
    expect(Object.keys(examples).filter((path) => !operationAt.has(path))).toEqual([])
    expect([...operationAt.keys()].filter((path) => examples[path] === undefined)).toEqual([])
  })

  it("each send data its operation's input schema decodes, and have an answer its output schema decodes", () => {
    const stale = Object.entries(examples).flatMap(([path, example]) => {
      const operation = operationAt.get(path)
      return operation === undefined ? [] : mismatchesOf(operation, example).map((problem) => `${path}: ${problem}`)
    })
    expect(stale).toEqual([])
  })

  it("are answered in the same shape by a fresh walk through every operation", async () => {
    const { record } = (await import(walkthroughFile)) as { record: RecordWalk }
    const atrium = testAtrium(MemoryStorage, {}, CapturedMail.layer)
    try {
      const fresh = await record({ atrium, client: directClient(atrium), operations: all })
      expect(Object.keys(fresh).sort()).toEqual(Object.keys(examples).sort())
      const differences = Object.entries(fresh).flatMap(([path, now]) => {
        const recorded = examples[path]
        return recorded === undefined ? [] : [
          ...shapeDifferences(recorded.request, now.request).map((difference) => `${path} request: ${difference}`),
          ...shapeDifferences(recorded.response, now.response).map((difference) => `${path} answer: ${difference}`)
        ]
      })
      expect(differences).toEqual([])
    } finally {
      await atrium.dispose()
    }
  }, 60_000)

  it("of documents/add works replayed on its own, in a new workspace (no organization or folder made first)", async () => {
    const atrium = testAtrium(MemoryStorage, {}, CapturedMail.layer)
    try {
      const client = directClient(atrium)
      const creds = await createTestWorkspace(client)
      for (const path of ["/v2/organizations/documents/add"]) {
        const answer = await client.post(path, (examples[path]!.request as { data: unknown }).data, creds.headers)
        expect(answer.status, `${path}: ${answer.text}`).toBe(200)
      }
    } finally {
      await atrium.dispose()
    }
  })

  describe("fail for an example recorded before a change", () => {
    const path = "/v2/workspace/domains/add"
    const operation = operationAt.get(path)!
    const recorded = examples[path]!

    it("fits today (each case below changes one thing since it was recorded)", () => {
      expect(mismatchesOf(operation, recorded)).toEqual([])
    })

    it("the input schema gained a required field", () => {
      const input = Schema.Struct({ domains: Schema.Array(Schema.String), scope: Schema.Literal("workspace") })
      expect(mismatchesOf({ ...operation, input }, recorded).join("\n")).toMatch(/^the request: Invalid data\.scope: is missing/)
    })

    it("the input schema renamed a field", () => {
      const input = Schema.Struct({ hosts: Schema.Array(Schema.String) })
      expect(mismatchesOf({ ...operation, input }, recorded).join("\n")).toContain("is not a known parameter")
    })

    it("the output schema renamed a field", () => {
      const output = Schema.Struct({
        status: Schema.Literal("success"),
        message: Schema.String,
        data: Schema.Struct({ added: Schema.Array(Schema.String) })
      })
      const problems = mismatchesOf({ ...operation, output }, recorded).join("\n")
      expect(problems).toContain("the answer:")
      expect(problems).toContain("[\"added\"]")
      expect(problems).toContain("[\"domainsAdded\"]")
    })

    it("the operation no longer declares the error it answered", () => {
      const refused = { ...recorded, response: { error: { status: "NOT_FOUND", message: "No such workspace." } } }
      expect(mismatchesOf(operation, refused)).toEqual(["the answer's error NOT_FOUND is not one the operation declares"])
      expect(mismatchesOf({ ...operation, errors: ["NOT_FOUND"] }, refused)).toEqual([])
    })

    it("the answer gained or lost a field, or a field changed type", () => {
      const answer = recorded.response
      expect(shapeDifferences(answer, answer)).toEqual([])
      expect(shapeDifferences(answer, { result: { status: "success", message: "m", data: { domainsAdded: ["a"], total: 1 } } }))
        .toEqual(["now only .result.data.total: number"])
      expect(shapeDifferences(answer, { result: { status: "success", message: "m", data: { domainsAdded: [1] } } }))
        .toEqual(["recorded only .result.data.domainsAdded[]: string", "now only .result.data.domainsAdded[]: number"])
      expect(shapeDifferences(answer, { result: { status: "success", message: "m", data: {} } }))
        .toEqual(["recorded only .result.data.domainsAdded: array", "recorded only .result.data.domainsAdded[]: string"])
    })
  })
})
