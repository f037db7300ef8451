import { type AtriumHandler, type AtriumRequest, createAtrium } from "@atrium/core"
import { MemoryStorage, testAtrium } from "@atrium/core/testing"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { afterAll, describe, expect, it } from "vitest"
import { toLambdaHandler } from "../src/index.js"
import { albEvent, answerOf, type EventOptions, type HttpRequest, v1Event, v2Event } from "./support/events.js"

const JSON_TYPE = { "content-type": "application/json; charset=utf-8" }

const atrium = testAtrium(MemoryStorage, { maxBodyBytes: 1024 })
afterAll(() => atrium.dispose())
const handler = toLambdaHandler(atrium)

const kinds = {
  "v1 (REST API)": (request: HttpRequest, options?: EventOptions) => handler(v1Event(request, options)),
  "v1 (HTTP API, payload 1.0)": (request: HttpRequest, options?: EventOptions) => handler(v1Event(request, { ...options, httpApi: true })),
  v2: (request: HttpRequest, options?: EventOptions) => handler(v2Event(request, options)),
  "ALB (headers)": (request: HttpRequest, options?: EventOptions) => handler(albEvent(request, options)),
  "ALB (multi-value headers)": (request: HttpRequest, options?: EventOptions) => handler(albEvent(request, { ...options, multiValue: true }))
}

const createWorkspace = (email: string): HttpRequest => ({
  method: "POST",
  path: "/v2/workspace/create",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ data: { ownerEmail: email } })
})

let emails = 0
const nextEmail = () => `lambda${++emails}@example.com`

/** A stand-in AtriumHandler that records what the adapter hands the core. */
const recorder = () => {
  const seen: Array<AtriumRequest> = []
  const stub = {
    handle: async (request: AtriumRequest) => {
      seen.push(request)
      return { status: 200, headers: JSON_TYPE, body: "{}" }
    }
  } as unknown as AtriumHandler
  return { seen, stub }
}

describe("answers in the event's own shape", () => {
  it("v1: statusCode, headers, body, isBase64Encoded false", async () => {
    const result = await handler(v1Event(createWorkspace(nextEmail())))
    expect(Object.keys(result).sort()).toEqual(["body", "headers", "isBase64Encoded", "statusCode"])
    expect(result).toMatchObject({ statusCode: 200, headers: JSON_TYPE, isBase64Encoded: false })
    expect(JSON.parse(result.body).result.status).toBe("success")
  })

  it("v2: statusCode, headers, body, isBase64Encoded false", async () => {
    const result = await handler(v2Event(createWorkspace(nextEmail())))
    expect(Object.keys(result).sort()).toEqual(["body", "headers", "isBase64Encoded", "statusCode"])
    expect(result).toMatchObject({ statusCode: 200, headers: JSON_TYPE, isBase64Encoded: false })
    expect(JSON.parse(result.body!).result.status).toBe("success")
  })

  it("ALB: a statusDescription, and headers as the request had them", async () => {
    const single = await handler(albEvent(createWorkspace(nextEmail())))
    expect(Object.keys(single).sort()).toEqual(["body", "headers", "isBase64Encoded", "statusCode", "statusDescription"])
    expect(single).toMatchObject({ statusCode: 200, statusDescription: "200 OK", headers: JSON_TYPE, isBase64Encoded: false })

    const multi = await handler(albEvent(createWorkspace(nextEmail()), { multiValue: true }))
    expect(Object.keys(multi).sort()).toEqual(["body", "isBase64Encoded", "multiValueHeaders", "statusCode", "statusDescription"])
    expect(multi).toMatchObject({
      statusCode: 200,
      statusDescription: "200 OK",
      multiValueHeaders: { "content-type": ["application/json; charset=utf-8"] },
      isBase64Encoded: false
    })

    const missing = await handler(albEvent({ method: "GET", path: "/nope", headers: {} }))
    expect(missing).toMatchObject({ statusCode: 404, statusDescription: "404 Not Found" })
  })
})

describe.each(Object.entries(kinds))("%s", (_, send) => {
  it("creates a workspace and reads it back with its credentials", async () => {
    const created = answerOf(await send(createWorkspace(nextEmail())))
    expect(created.status).toBe(200)
    const data = JSON.parse(created.body).result.data
    const [apiKey, entry] = Object.entries(data.apiKeyList)[0] as [string, { authToken: string }]
    const listed = answerOf(
      await send({
        method: "POST",
        path: "/v2/organizations/documents/get",
        headers: { "content-type": "application/json", "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken },
        body: JSON.stringify({ data: { organizationId: "org-1" } })
      })
    )
    expect(listed.status).toBe(200)
    expect(JSON.parse(listed.body).result.data).toEqual([])
  })

  it("decodes a base64 body, and counts the limit on the decoded bytes", async () => {
    // 1,000 bytes of JSON are 1,336 in base64: over the 1,024-byte limit only if counted encoded.
    const ownerEmail = nextEmail()
    const sized = (pad: number) => JSON.stringify({ data: { ownerEmail, avatar: "https://example.com/" + "a".repeat(pad) } })
    const body = sized(1000 - sized(0).length)
    expect(Buffer.byteLength(body)).toBe(1000)
    const answer = answerOf(await send({ ...createWorkspace(""), body }, { base64: true }))
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body).result.status).toBe("success")
  })

  it("refuses an oversized body with Atrium's envelope", async () => {
    const answer = answerOf(await send({ ...createWorkspace(""), body: JSON.stringify({ data: { ownerEmail: "x".repeat(2000) } }) }))
    expect(answer).toEqual({
      status: 400,
      headers: JSON_TYPE,
      body: JSON.stringify({ error: { status: "INVALID_ARGUMENT", message: "Request body is larger than 1024 bytes." } })
    })
  })

  it("answers an unknown path with the NOT_FOUND envelope", async () => {
    const answer = answerOf(await send({ method: "POST", path: "/v2/nope?x=1", headers: { "content-type": "application/json" }, body: "{}" }))
    expect(answer).toEqual({
      status: 404,
      headers: JSON_TYPE,
      body: JSON.stringify({ error: { status: "NOT_FOUND", message: "No operation at /v2/nope." } })
    })
  })

  it("serves GET documents (healthz)", async () => {
    const answer = answerOf(await send({ method: "GET", path: "/healthz", headers: {} }))
    expect(answer).toEqual({ status: 200, headers: JSON_TYPE, body: JSON.stringify({ status: "ok" }) })
  })
})

describe("what the core receives", () => {
  const lastOf = async (event: Parameters<ReturnType<typeof toLambdaHandler>>[0], basePath?: string) => {
    const { seen, stub } = recorder()
    await toLambdaHandler(stub, basePath === undefined ? {} : { basePath })(event)
    expect(seen).toHaveLength(1)
    return seen[0]!
  }
  const post: HttpRequest = { method: "POST", path: "/v2/users/get", headers: { "content-type": "application/json" }, body: "{\"data\":{}}" }

  it("v1: lower-cased headers, multiValueHeaders winning over headers and joined, identity.sourceIp", async () => {
    const event = v1Event(post, { sourceIp: "203.0.113.9" })
    // What API Gateway sends for a repeated header: `headers` has the last value, `multiValueHeaders` all of them.
    event.headers["Accept-Language"] = "de"
    event.multiValueHeaders["Accept-Language"] = ["en", "de"]
    const request = await lastOf(event)
    expect(request).toMatchObject({ method: "POST", path: "/v2/users/get", body: "{\"data\":{}}", ip: "203.0.113.9" })
    expect(request.headers["content-type"]).toBe("application/json")
    expect(request.headers["accept-language"]).toBe("en, de")
    expect(request.headers["x-forwarded-for"]).toBe("203.0.113.9, 130.176.0.1")
    expect(Object.keys(request.headers).every((name) => name === name.toLowerCase())).toBe(true)
  })

  it("v1 without multiValueHeaders reads headers alone", async () => {
    const event = v1Event(post) as unknown as Record<string, unknown>
    delete event.multiValueHeaders
    const request = await lastOf(event as never)
    expect(request.headers["content-type"]).toBe("application/json")
    expect(request.headers["host"]).toBe("1234567890.execute-api.us-east-1.amazonaws.com")
  })

  it("v2: rawPath, cookies back into one cookie header, http.sourceIp", async () => {
    const request = await lastOf(v2Event({ ...post, path: "/v2/users/get?a=1", headers: { ...post.headers, cookie: "a=1; b=2" } }, { sourceIp: "203.0.113.10" }))
    expect(request).toMatchObject({ method: "POST", path: "/v2/users/get", ip: "203.0.113.10" })
    expect(request.headers.cookie).toBe("a=1; b=2")
  })

  it("ALB: the last x-forwarded-for entry is the caller (earlier ones can be forged)", async () => {
    const single = await lastOf(albEvent({ ...post, headers: { ...post.headers, "x-forwarded-for": "10.0.0.1, 203.0.113.11" } }))
    expect(single.ip).toBe("203.0.113.11")
    const multi = await lastOf(albEvent({ ...post, headers: { ...post.headers, "x-forwarded-for": "203.0.113.12" } }, { multiValue: true }))
    expect(multi.ip).toBe("203.0.113.12")
    expect(multi.headers["content-type"]).toBe("application/json")
  })

  it("bytes: a base64 body reaches the core as the decoded bytes", async () => {
    const bytes = new Uint8Array([0x7b, 0x7d, 0xff])
    for (const event of [v1Event({ ...post, body: bytes }), v2Event({ ...post, body: bytes }), albEvent({ ...post, body: bytes })]) {
      const request = await lastOf(event)
      expect(Buffer.from(request.body as Uint8Array)).toEqual(Buffer.from(bytes))
    }
  })

  it("no body: undefined for every kind (the ALB sends an empty string)", async () => {
    const get: HttpRequest = { method: "GET", path: "/healthz", headers: {} }
    for (const event of [v1Event(get), v2Event(get), albEvent(get), albEvent(get, { multiValue: true })]) {
      expect((await lastOf(event)).body).toBeUndefined()
    }
  })
})

describe("stages and the base path", () => {
  const pathSeen = async (event: Parameters<ReturnType<typeof toLambdaHandler>>[0], basePath?: string) => {
    const { seen, stub } = recorder()
    const result = answerOf(await toLambdaHandler(stub, basePath === undefined ? {} : { basePath })(event))
    return seen.length === 0 ? result : seen[0]!.path
  }
  const at = (path: string): HttpRequest => ({ method: "GET", path, headers: {} })

  it("an HTTP API's named stage is removed from rawPath (v2) and path (payload 1.0); $default adds nothing", async () => {
    expect(v2Event(at("/healthz"), { stage: "prod" }).rawPath).toBe("/prod/healthz")
    expect(await pathSeen(v2Event(at("/healthz"), { stage: "prod" }))).toBe("/healthz")
    expect(await pathSeen(v2Event(at("/healthz"), { stage: "$default" }))).toBe("/healthz")
    expect(await pathSeen(v1Event(at("/healthz"), { httpApi: true, stage: "dev" }))).toBe("/healthz")
    // A stage named like Atrium's own first segment: only the stage's copy goes.
    expect(await pathSeen(v2Event(at("/v2/users/get"), { stage: "v2" }))).toBe("/v2/users/get")
  })

  it("a REST API's event.path never carries the stage, so nothing is removed", async () => {
    const event = v1Event(at("/v2/users/get"), { stage: "v2" })
    expect(event.requestContext.path).toBe("/v2/v2/users/get")
    expect(await pathSeen(event)).toBe("/v2/users/get")
  })

  it("strips the base path (with or without slashes), after the stage", async () => {
    expect(await pathSeen(v1Event(at("/collab/v2/users/get")), "/collab/")).toBe("/v2/users/get")
    expect(await pathSeen(v1Event(at("/collab")), "collab")).toBe("/")
    expect(await pathSeen(v2Event(at("/collab/healthz"), { stage: "prod" }), "/collab")).toBe("/healthz")
    expect(await pathSeen(albEvent(at("/collab/healthz")), "/collab")).toBe("/healthz")
  })

  it("answers NOT_FOUND outside the base path without calling the core", async () => {
    for (const event of [v1Event(at("/collabx/healthz")), v2Event(at("/other?x=1"), { stage: "prod" }), albEvent(at("/"))]) {
      const answer = await pathSeen(event, "/collab")
      expect(answer).toMatchObject({ status: 404, headers: JSON_TYPE })
      expect(JSON.parse((answer as { body: string }).body).error.status).toBe("NOT_FOUND")
    }
    expect(await pathSeen(v2Event(at("/other?x=1"), { stage: "prod" }), "/collab")).toMatchObject({
      body: JSON.stringify({ error: { status: "NOT_FOUND", message: "No operation at /other." } })
    })
  })

  it("serves real operations under the base path", async () => {
    const mounted = toLambdaHandler(atrium, { basePath: "/collab" })
    const answer = answerOf(await mounted(v2Event({ ...createWorkspace(nextEmail()), path: "/collab/v2/workspace/create" }, { stage: "prod" })))
    expect(answer.status).toBe(200)
    expect(answerOf(await mounted(v2Event(createWorkspace(nextEmail())))).status).toBe(404)
  })
})

describe("built once per container", () => {
  it("builds the Atrium and its storage Layer on the first invocation, then reuses them", async () => {
    let factoryCalls = 0
    let layerBuilds = 0
    const storage = Layer.merge(MemoryStorage, Layer.effectDiscard(Effect.sync(() => void layerBuilds++)))
    let built: AtriumHandler | undefined
    const handle = toLambdaHandler(() => {
      factoryCalls++
      built = createAtrium({ storage })
      return built
    })
    expect(factoryCalls).toBe(0)

    const created = answerOf(await handle(v2Event(createWorkspace(nextEmail()))))
    const data = JSON.parse(created.body).result.data
    const [apiKey, entry] = Object.entries(data.apiKeyList)[0] as [string, { authToken: string }]
    // A second invocation (another event kind, even) sees the first one's data: same runtime, same storage.
    const listed = answerOf(
      await handle(v1Event({
        method: "POST",
        path: "/v2/organizations/documents/get",
        headers: { "content-type": "application/json", "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken },
        body: JSON.stringify({ data: { organizationId: "org-1" } })
      }))
    )
    expect(listed.status).toBe(200)
    expect(factoryCalls).toBe(1)
    expect(layerBuilds).toBe(1)
    await built!.dispose()
  })

  it("never calls the factory for requests outside the base path", async () => {
    let factoryCalls = 0
    const handle = toLambdaHandler(() => {
      factoryCalls++
      return atrium
    }, { basePath: "/collab" })
    expect(answerOf(await handle(v2Event({ method: "GET", path: "/elsewhere", headers: {} }))).status).toBe(404)
    expect(factoryCalls).toBe(0)
  })
})
