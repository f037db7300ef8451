/**
 * The parity suite: HTTP scenarios every adapter (node-http, Express, Fastify,
 * Lambda) must answer byte for byte alike. An adapter test gives `recordParity`
 * a `Send` that goes through the real framework (paths are relative to the
 * mount point: the test adds its prefix) and compares the record with the one
 * node-http gives for the same scenarios.
 *
 * Run it against an Atrium built with `testAtrium(storage, { maxBodyBytes: PARITY_MAX_BODY_BYTES })`
 * (the oversized-body scenario sends exactly one byte more; `testAtrium` also
 * lifts the workspace/create rate limit the scenarios would otherwise hit).
 */

import { assertOutputMatches } from "./OutputCheck.js"

export interface RawHttpRequest {
  readonly method: string
  /** The path after the mount prefix, with any query string: `/v2/...`, `/`, `?x=1`, or `` for the mount point itself. */
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array
}

export interface RawHttpResponse {
  readonly status: number
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export type Send = (request: RawHttpRequest) => Promise<RawHttpResponse>

export interface ParityScenario {
  readonly name: string
  readonly run: (send: Send) => Promise<RawHttpResponse[]>
}

export interface ParityAnswer {
  readonly status: number
  readonly contentType: string
  readonly body: string
  /** The answer's CORS headers and `vary`, by name: an adapter must pass them, and a preflight's OPTIONS, through. */
  readonly cors: Readonly<Record<string, string>>
}

/** The `maxBodyBytes` the Atrium under test must have. */
export const PARITY_MAX_BODY_BYTES = 4096

const JSON_TYPE = { "content-type": "application/json" }

const post = (path: string, data: unknown, headers: Readonly<Record<string, string>> = {}): RawHttpRequest => ({
  method: "POST",
  path,
  headers: { ...JSON_TYPE, ...headers },
  body: JSON.stringify({ data })
})

const raw = (method: string, path: string, headers: Readonly<Record<string, string>> = {}, body?: string | Uint8Array): RawHttpRequest => ({
  method,
  path,
  headers,
  ...(body !== undefined && { body })
})

/**
 * Owner emails carry a random run tag so the scenarios can run twice on one Atrium;
 * `recordParity` masks it (also in the names made from the email: "Parity-… Test API Key").
 */
const RUN_TAG = /([pP]arity-)[0-9a-z]{10}/g
const ownerEmail = () => `parity-${Math.random().toString(36).slice(2, 12).padEnd(10, "0")}@example.com`

interface Credentials {
  readonly apiKeyHeaders: Readonly<Record<string, string>>
  readonly workspaceHeaders: Readonly<Record<string, string>>
}

/** workspace/create through `send`: its answer (recorded) and the credentials it returned. */
const createWorkspace = async (send: Send): Promise<[RawHttpResponse, Credentials]> => {
  const answer = await send(post("/v2/workspace/create", { ownerEmail: ownerEmail() }))
  if (answer.status !== 200) throw new Error(`workspace/create failed (${answer.status}): ${answer.body}`)
  const data = JSON.parse(answer.body).result.data
  const [apiKey, entry] = Object.entries(data.apiKeyList)[0] as [string, { authToken: string }]
  return [answer, {
    apiKeyHeaders: { "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken },
    workspaceHeaders: { "x-service-workspace-id": data.id, "x-service-workspace-auth-token": data.authToken }
  }]
}

/** Sends one request after another (each may use the previous answers). */
const inOrder = async (send: Send, requests: ReadonlyArray<RawHttpRequest>) => {
  const answers: Array<RawHttpResponse> = []
  for (const request of requests) answers.push(await send(request))
  return answers
}

const DOCUMENTS = "/v2/organizations/documents/get"
const ADD_V1 = "/v1/organizations/documents/add"
const CLIENT_ACCESS = "/v2/client/access/get"
/** The page the CORS scenario's key lists, and one no key lists. */
const LISTED_ORIGIN = "https://app.parity.example"
const UNLISTED_ORIGIN = "https://elsewhere.parity.example"

/** A browser's preflight for a POST with the client API's headers. */
const preflight = (path: string, origin: string) =>
  raw("OPTIONS", path, { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" })

/** The CORS headers of an answer (and `vary`), sorted by name. */
const corsHeadersOf = (headers: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.keys(headers).filter((name) => name.startsWith("access-control-") || name === "vary").sort().map((name) => [name, headers[name]!]))

export const parityScenarios: ReadonlyArray<ParityScenario> = [
  {
    name: "public operation: workspace/create",
    run: async (send) => [(await createWorkspace(send))[0]]
  },
  {
    name: "workspace credentials: workspace/get",
    run: async (send) => {
      const [created, { workspaceHeaders }] = await createWorkspace(send)
      return [created, await send(post("/v2/workspace/get", {}, workspaceHeaders))]
    }
  },
  {
    name: "API-key credentials: organizations/documents/get",
    run: async (send) => {
      const [, { apiKeyHeaders }] = await createWorkspace(send)
      return [await send(post(DOCUMENTS, { organizationId: "org-parity" }, apiKeyHeaders))]
    }
  },
  {
    name: "content type: a charset and upper case are accepted",
    run: async (send) => {
      const [, { apiKeyHeaders }] = await createWorkspace(send)
      const body = JSON.stringify({ data: { organizationId: "org-parity" } })
      return [await send(raw("POST", DOCUMENTS, { ...apiKeyHeaders, "content-type": "Application/JSON; charset=UTF-8" }, body))]
    }
  },
  {
    name: "batch: organizations/documents/add v1 with several items",
    run: async (send) => {
      const [, { apiKeyHeaders }] = await createWorkspace(send)
      const documents = [
        { documentId: "doc-a", documentName: "Plan" },
        { documentId: "doc-b" },
        { documentId: "doc-c", documentName: "Notes", color: "blue" }
      ]
      return inOrder(send, [
        post(ADD_V1, { organizationId: "org-parity", documents }, apiKeyHeaders),
        post(DOCUMENTS, { organizationId: "org-parity", documentIds: ["doc-a", "doc-b", "doc-c"] }, apiKeyHeaders)
      ])
    }
  },
  {
    name: "pagination: organizations/documents/get with pageSize and the returned pageToken",
    run: async (send) => {
      const [, { apiKeyHeaders }] = await createWorkspace(send)
      const documents = Array.from({ length: 5 }, (_, i) => ({ documentId: `doc-${i}`, documentName: `Document ${i}` }))
      const answers = [await send(post(ADD_V1, { organizationId: "org-parity", documents }, apiKeyHeaders))]
      let pageToken: string | undefined
      do {
        const page = await send(post(DOCUMENTS, { organizationId: "org-parity", pageSize: 2, ...(pageToken !== undefined && { pageToken }) }, apiKeyHeaders))
        answers.push(page)
        pageToken = page.status === 200 ? JSON.parse(page.body).result.pageToken : undefined
      } while (pageToken !== undefined && answers.length < 5)
      return answers
    }
  },
  {
    name: "error: a body without data",
    run: (send) =>
      inOrder(send, [
        raw("POST", "/v2/workspace/create", JSON_TYPE, "{}"),
        raw("POST", "/v2/workspace/create", JSON_TYPE, JSON.stringify({ ownerEmail: "x@example.com" })),
        raw("POST", "/v2/workspace/create", JSON_TYPE, JSON.stringify({ data: { ownerEmail: "x@example.com" }, extra: 1 })),
        raw("POST", "/v2/workspace/create", JSON_TYPE, JSON.stringify({ data: ["x@example.com"] })),
        raw("POST", "/v2/workspace/create", JSON_TYPE, "[1, 2]")
      ])
  },
  {
    name: "error: bad JSON",
    run: (send) =>
      inOrder(send, [
        raw("POST", "/v2/workspace/create", JSON_TYPE, "{\"data\": {"),
        raw("POST", "/v2/workspace/create", JSON_TYPE, "not json")
      ])
  },
  {
    // The adapter must hand over the bytes as they came (Lambda: base64 decoded), not a decoded string.
    name: "error: a body that is not UTF-8",
    run: (send) => {
      const utf8 = new TextEncoder()
      const bytes = new Uint8Array([...utf8.encode("{\"data\":{\"ownerEmail\":\"a"), 0xff, ...utf8.encode("@example.com\"}}")])
      return inOrder(send, [raw("POST", "/v2/workspace/create", JSON_TYPE, bytes)])
    }
  },
  {
    name: "error: no body",
    run: (send) => inOrder(send, [raw("POST", "/v2/workspace/create", JSON_TYPE)])
  },
  {
    name: "error: wrong content type",
    run: (send) => {
      const body = JSON.stringify({ data: { ownerEmail: "x@example.com" } })
      return inOrder(send, [
        raw("POST", "/v2/workspace/create", { "content-type": "text/plain" }, body),
        raw("POST", "/v2/workspace/create", { "content-type": "application/x-www-form-urlencoded" }, "data=x"),
        // Bytes without any content-type header.
        raw("POST", "/v2/workspace/create", {}, new TextEncoder().encode(body))
      ])
    }
  },
  {
    name: "error: wrong method",
    run: (send) =>
      inOrder(send, [
        raw("GET", "/v2/workspace/get"),
        raw("PUT", "/v2/workspace/get", JSON_TYPE, JSON.stringify({ data: {} })),
        raw("DELETE", "/v2/workspace/get"),
        raw("PATCH", "/v2/workspace/get", JSON_TYPE, JSON.stringify({ data: {} }))
      ])
  },
  {
    name: "error: unknown path",
    run: (send) =>
      inOrder(send, [
        post("/v2/no/such/operation", {}),
        post("/v2/workspace/get/", {}),
        raw("GET", "/v2/no/such/document")
      ])
  },
  {
    name: "error: oversized body (one byte over the limit; exactly at it is accepted)",
    run: (send) => {
      const sized = (bytes: number) => {
        const body = JSON.stringify({ data: { ownerEmail: ownerEmail() } })
        return body.slice(0, -1) + " ".repeat(bytes - body.length) + "}"
      }
      return inOrder(send, [
        raw("POST", "/v2/workspace/create", JSON_TYPE, sized(PARITY_MAX_BODY_BYTES + 1)),
        raw("POST", "/v2/workspace/create", JSON_TYPE, sized(PARITY_MAX_BODY_BYTES))
      ])
    }
  },
  {
    name: "error: missing credentials",
    run: async (send) => {
      await createWorkspace(send)
      return inOrder(send, [
        post(DOCUMENTS, { organizationId: "org-parity" }),
        post("/v2/workspace/get", {})
      ])
    }
  },
  {
    name: "error: wrong credentials",
    run: async (send) => {
      const [, { apiKeyHeaders, workspaceHeaders }] = await createWorkspace(send)
      return inOrder(send, [
        post(DOCUMENTS, { organizationId: "org-parity" }, { ...apiKeyHeaders, "x-service-auth-token": "wrong" }),
        post(DOCUMENTS, { organizationId: "org-parity" }, { ...apiKeyHeaders, "x-service-api-key": "atr_unknown" }),
        post("/v2/workspace/get", {}, { ...workspaceHeaders, "x-service-workspace-auth-token": "wrong" })
      ])
    }
  },
  {
    // Only the answers that name nothing made up are recorded (the token is not).
    name: "CORS: preflights and client calls from a listed origin and an unlisted one; none on the server API",
    run: async (send) => {
      const [, { apiKeyHeaders }] = await createWorkspace(send)
      await send(post("/v2/workspace/domains/add", { domains: [LISTED_ORIGIN] }, apiKeyHeaders))
      const issued = await send(post("/v2/auth/generate_token", { userId: "ann", userProperties: { name: "Ann", email: "ann@example.com" }, permissions: { resources: [] } }, apiKeyHeaders))
      if (issued.status !== 200) throw new Error(`generate_token failed (${issued.status}): ${issued.body}`)
      const user = { authorization: `Bearer ${JSON.parse(issued.body).result.data.token}` }
      const access = { organizationId: "org-parity", documentIds: ["doc-a"] }
      return inOrder(send, [
        preflight(CLIENT_ACCESS, LISTED_ORIGIN),
        preflight(CLIENT_ACCESS, UNLISTED_ORIGIN),
        post(CLIENT_ACCESS, access, { ...user, origin: LISTED_ORIGIN }),
        post(CLIENT_ACCESS, access, { ...user, origin: UNLISTED_ORIGIN }),
        post(DOCUMENTS, { organizationId: "org-parity" }, { ...apiKeyHeaders, origin: LISTED_ORIGIN }),
        preflight(DOCUMENTS, LISTED_ORIGIN)
      ])
    }
  },
  {
    name: "mount prefix: the mount point, documents and query strings",
    run: async (send) => {
      const [, { workspaceHeaders }] = await createWorkspace(send)
      return inOrder(send, [
        raw("GET", ""),
        raw("GET", "/"),
        raw("GET", "?probe=1"),
        raw("GET", "/healthz"),
        raw("GET", "/healthz?probe=1"),
        post("/v2/workspace/get?probe=1", {}, workspaceHeaders)
      ])
    }
  },
  {
    name: "the API reference: the page, Redoc's script, the page's headers, and no POST",
    run: async (send) => {
      const [page, script, posted] = await inOrder(send, [
        raw("GET", "/docs"),
        raw("GET", "/docs/redoc.standalone.js"),
        raw("POST", "/docs", JSON_TYPE, "{}")
      ])
      const kept = ["content-security-policy", "cache-control", "x-content-type-options"]
      return [
        // The headers a browser acts on ride in the body, which the record compares.
        { ...page, body: JSON.stringify(Object.fromEntries(kept.map((name) => [name, page.headers[name]]))) + page.body },
        // Redoc's megabyte, summed up: its size and where it starts.
        { ...script, body: `${script.body.length} characters: ${script.body.slice(0, 80)}` },
        posted
      ]
    }
  }
]

/** A `Send` over real HTTP: `fetch(mountUrl + path)`, e.g. `fetchSend("http://127.0.0.1:3000/collab")`. */
export const fetchSend = (mountUrl: string): Send => async (request) => {
  const response = await fetch(mountUrl + request.path, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined && { body: request.body as BodyInit })
  })
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => (headers[name] = value))
  return { status: response.status, headers, body: await response.text() }
}

const GENERATED_STRING_KEYS = new Set(["authToken", "pageToken", "nextPageToken"])

/**
 * Values the server made up (ids, secrets, page tokens): from workspace/create's
 * answer, any page token, and the ids of batch items.
 */
const collectGenerated = (value: unknown, found: Set<string>, parentKey = ""): void => {
  if (typeof value !== "object" || value === null) return
  const record = value as Record<string, unknown>
  if (parentKey === "apiKeyList") for (const key of Object.keys(record)) found.add(key)
  if (typeof record.success === "boolean" && typeof record.id === "string") found.add(record.id)
  if (record.apiKeyList !== undefined && typeof record.id === "string") {
    found.add(record.id)
    const owner = record.owner as { id?: unknown } | undefined
    if (typeof owner?.id === "string") found.add(owner.id)
  }
  for (const [key, child] of Object.entries(record)) {
    if (GENERATED_STRING_KEYS.has(key) && typeof child === "string") found.add(child)
    else collectGenerated(child, found, key)
  }
}

/** Replaces every generated value (as a whole JSON string) with `<generated-N>`, numbered by first appearance. */
const masker = () => {
  const names = new Map<string, string>()
  return (body: string): string => {
    const found = new Set<string>()
    try {
      collectGenerated(JSON.parse(body), found)
    } catch {
      // Not JSON: nothing generated to find.
    }
    for (const value of found) if (!names.has(value)) names.set(value, `<generated-${names.size + 1}>`)
    let masked = body.replace(RUN_TAG, "$1<run>")
    for (const [value, name] of names) masked = masked.split(JSON.stringify(value)).join(JSON.stringify(name))
    return masked
  }
}

/**
 * Runs every scenario, one after another, and returns each one's answers with
 * server-made values masked, so two adapters' records compare byte for byte.
 */
export const recordParity = async (send: Send): Promise<Record<string, Array<ParityAnswer>>> => {
  const record: Record<string, Array<ParityAnswer>> = {}
  const checked: Send = async (request) => {
    const answer = await send(request)
    if (answer.headers["content-type"]?.startsWith("application/json")) {
      assertOutputMatches(request.path, answer.status, JSON.parse(answer.body))
    }
    return answer
  }
  for (const scenario of parityScenarios) {
    const mask = masker()
    const answers = await scenario.run(checked)
    record[scenario.name] = answers.map((answer) => ({
      status: answer.status,
      contentType: answer.headers["content-type"] ?? "",
      body: mask(answer.body),
      cors: corsHeadersOf(answer.headers)
    }))
  }
  return record
}
