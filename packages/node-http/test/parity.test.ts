import { fetchSend, MemoryStorage, PARITY_MAX_BODY_BYTES, type ParityAnswer, parityScenarios, recordParity, testAtrium } from "@atrium/core/testing"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { join } from "node:path"
import { toNodeListener } from "../src/index.js"

// node-http is the reference every other adapter is compared with: here the
// reference itself is checked, answer by answer, byte for byte.
const atrium = testAtrium(MemoryStorage, { maxBodyBytes: PARITY_MAX_BODY_BYTES })
const server = createServer(toNodeListener(atrium, { basePath: "/collab" }))
let mountUrl = ""

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  mountUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/collab`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await atrium.dispose()
})

const g = (n: number) => `<generated-${n}>`
const error = (status: string, message: string) => ({ error: { status, message } })
const invalid = (message: string) => [400, error("INVALID_ARGUMENT", message)] as const
const notFound = (path: string) => [404, error("NOT_FOUND", `No operation at ${path}.`)] as const
const success = (message: string, data: unknown, beside: object = {}) => ({ result: { status: "success", message, data, ...beside } })

/** A workspace as workspace/create shows it (with its two secrets) or workspace/get (without; `key` numbers its API key). */
const workspace = (secrets: boolean, key = secrets ? 4 : 3) => ({
  id: g(1),
  name: "parity-<run>@example.com workspace",
  owner: { email: "parity-<run>@example.com", id: g(2), name: "parity-<run>@example.com", avatar: null },
  ...(secrets && { authToken: g(3) }),
  apiKeyList: { [g(key)]: { id: g(key), apiKeyName: "Parity-<run> Test API Key", type: "testing", ...(secrets && { authToken: g(5) }) } }
})
const created = [200, success("Workspace created successfully", workspace(true))] as const
const retrieved = (key?: number) => [200, success("Workspace retrieved successfully.", workspace(false, key))] as const
const doc = (id: string, documentName: string) => ({ documentName, disabled: false, accessType: "public", id })
const added = (ids: ReadonlyArray<string>) =>
  [200, success("Document(s) added successfully.", Object.fromEntries(ids.map((id, i) => [id, { success: true, id: g(i + 1), message: "Added Successfully" }])))] as const
const page = (docs: ReadonlyArray<object>, beside: object = {}) => [200, success("Document(s) retrieved successfully.", docs, beside)] as const

/** Answers on the client API carry `vary: origin`; those a listed page may read, its origin too. */
const LISTED = "https://app.parity.example"
const readable = { "access-control-allow-origin": LISTED, "access-control-expose-headers": "retry-after", vary: "origin" }

const pointer = [200, { name: "Atrium", docs: "docs", openapi: "openapi.json", about: "Atrium's server API: its reference is at /docs, its OpenAPI description at /openapi.json." }] as const
/** Redoc's bundle as @atrium/core's build ships it. */
const redoc = readFileSync(join(__dirname, "..", "..", "core", "dist", "docs", "redoc.standalone.js"), "utf8")

/** Each scenario's answers: JSON ones as [status, body, cors?], any other as the record's own shape. */
const expected: Record<string, ReadonlyArray<readonly [number, object | undefined, Record<string, string>?] | ParityAnswer>> = {
  "public operation: workspace/create": [created],
  // The API key keeps the placeholder workspace/create's answer gave it.
  "workspace credentials: workspace/get": [created, retrieved(4)],
  "API-key credentials: organizations/documents/get": [page([])],
  "content type: a charset and upper case are accepted": [page([])],
  "batch: organizations/documents/add v1 with several items": [
    added(["doc-a", "doc-b", "doc-c"]),
    page([doc("doc-a", "Plan"), doc("doc-b", ""), doc("doc-c", "Notes")])
  ],
  "pagination: organizations/documents/get with pageSize and the returned pageToken": [
    added(["doc-0", "doc-1", "doc-2", "doc-3", "doc-4"]),
    page([doc("doc-0", "Document 0"), doc("doc-1", "Document 1")], { pageToken: g(6) }),
    page([doc("doc-2", "Document 2"), doc("doc-3", "Document 3")], { pageToken: g(7) }),
    page([doc("doc-4", "Document 4")])
  ],
  "error: a body without data": [
    invalid("Request body must wrap its parameters in \"data\"."),
    invalid("Unexpected top-level key \"ownerEmail\": parameters belong inside \"data\"."),
    invalid("Unexpected top-level key \"extra\": parameters belong inside \"data\"."),
    invalid("\"data\" must be a JSON object."),
    invalid("Request body must be a JSON object {\"data\": {...}}.")
  ],
  "error: bad JSON": [invalid("Request body is not valid JSON."), invalid("Request body is not valid JSON.")],
  "error: a body that is not UTF-8": [invalid("Request body is not valid UTF-8.")],
  "error: no body": [invalid("Request body is empty: send a JSON object {\"data\": {...}}.")],
  "error: wrong content type": Array(3).fill(invalid("Content-Type must be application/json.")),
  "error: wrong method": ["GET", "PUT", "DELETE", "PATCH"].map((method) => invalid(`Method ${method} is not allowed: every operation is a POST.`)),
  "error: unknown path": [notFound("/v2/no/such/operation"), notFound("/v2/workspace/get/"), notFound("/v2/no/such/document")],
  "error: oversized body (one byte over the limit; exactly at it is accepted)": [invalid(`Request body is larger than ${PARITY_MAX_BODY_BYTES} bytes.`), created],
  "error: missing credentials": [
    [403, error("PERMISSION_DENIED", "Invalid API key.")],
    [403, error("PERMISSION_DENIED", "Invalid workspace credentials.")]
  ],
  "error: wrong credentials": [
    [403, error("PERMISSION_DENIED", "Invalid API key.")],
    [403, error("PERMISSION_DENIED", "Invalid API key.")],
    [403, error("PERMISSION_DENIED", "Invalid workspace credentials.")]
  ],
  "CORS: preflights and client calls from a listed origin and an unlisted one; none on the server API": [
    [204, undefined, {
      "access-control-allow-headers": "authorization, content-type, traceparent",
      "access-control-allow-methods": "POST",
      "access-control-allow-origin": LISTED,
      "access-control-max-age": "7200",
      vary: "origin"
    }],
    [403, error("PERMISSION_DENIED", "Origin https://elsewhere.parity.example is not allowed."), { vary: "origin" }],
    [200, success("Access retrieved successfully.", { "doc-a": { accessRole: "editor" } }), readable],
    [403, error("PERMISSION_DENIED", "Origin https://elsewhere.parity.example is not an allowed domain of this API key."), { vary: "origin" }],
    page([]),
    invalid("Method OPTIONS is not allowed: every operation is a POST.")
  ],
  "mount prefix: the mount point, documents and query strings": [
    pointer,
    pointer,
    pointer,
    [200, { status: "ok" }],
    [200, { status: "ok" }],
    retrieved()
  ],
  "the API reference: the page, Redoc's script, the page's headers, and no POST": [
    {
      status: 200,
      contentType: "text/html; charset=utf-8",
      body: expect.stringMatching(/^\{"content-security-policy":"default-src 'none'; script-src 'self'; [^"]+","cache-control":"no-cache","x-content-type-options":"nosniff"\}<!doctype html>/),
      cors: {}
    },
    { status: 200, contentType: "text/javascript; charset=utf-8", body: `${redoc.length} characters: ${redoc.slice(0, 80)}`, cors: {} },
    notFound("/docs")
  ]
}

describe("the parity suite through node-http (the reference)", () => {
  it("answers every scenario exactly as the protocol says", async () => {
    const record = await recordParity(fetchSend(mountUrl))
    expect(Object.keys(record)).toEqual(parityScenarios.map((scenario) => scenario.name))
    const want = Object.fromEntries(Object.entries(expected).map(([name, answers]) => [
      name,
      answers.map((answer) => {
        if (!Array.isArray(answer)) return answer
        const [status, body, cors = {}] = answer
        return body === undefined
          ? { status, contentType: "", body: "", cors } // an admitted preflight: no body, no type
          : { status, contentType: "application/json; charset=utf-8", body: JSON.stringify(body), cors }
      })
    ]))
    expect(record).toEqual(want)
  })

  it("records the same answers when run again on the same Atrium (server-made values are masked)", async () => {
    const send = fetchSend(mountUrl)
    expect(await recordParity(send)).toEqual(await recordParity(send))
  })
})
