import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"

const json = { "content-type": "application/json" }
const PATH = "/v2/organizations/documents/get"

forEachBackend("protocol", (ctx) => {
  const expectError = (answer: { status: number; body: any }, http: number, status: string, message?: string | RegExp) => {
    expect(answer.status).toBe(http)
    expect(Object.keys(answer.body)).toEqual(["error"])
    expect(answer.body.error.status).toBe(status)
    if (typeof message === "string") expect(answer.body.error.message).toBe(message)
    else if (message) expect(answer.body.error.message).toMatch(message)
  }

  describe("malformed requests", () => {
    it("refuses a body without the data wrapper", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const answer = await client.raw({ path: PATH, headers: { ...json, ...creds.headers }, body: JSON.stringify({ organizationId: "o" }) })
      expectError(answer, 400, "INVALID_ARGUMENT", 'Unexpected top-level key "organizationId": parameters belong inside "data".')
    })

    it("refuses an empty object (no data)", async () => {
      const { client } = ctx()
      expectError(await client.raw({ path: PATH, headers: json, body: "{}" }), 400, "INVALID_ARGUMENT", 'Request body must wrap its parameters in "data".')
    })

    it("refuses an extra top-level key beside data", async () => {
      const { client } = ctx()
      const answer = await client.raw({ path: PATH, headers: json, body: JSON.stringify({ data: {}, extra: 1 }) })
      expectError(answer, 400, "INVALID_ARGUMENT", 'Unexpected top-level key "extra": parameters belong inside "data".')
    })

    it("refuses bad JSON", async () => {
      const { client } = ctx()
      expectError(await client.raw({ path: PATH, headers: json, body: '{"data": {' }), 400, "INVALID_ARGUMENT", "Request body is not valid JSON.")
    })

    it("refuses a JSON array, a string and null", async () => {
      const { client } = ctx()
      for (const body of ["[]", '"data"', "null", "42"]) {
        expectError(await client.raw({ path: PATH, headers: json, body }), 400, "INVALID_ARGUMENT", 'Request body must be a JSON object {"data": {...}}.')
      }
    })

    it("refuses data that is not an object", async () => {
      const { client } = ctx()
      for (const data of ["[]", "1", "null", '"x"']) {
        expectError(await client.raw({ path: PATH, headers: json, body: `{"data": ${data}}` }), 400, "INVALID_ARGUMENT", '"data" must be a JSON object.')
      }
    })

    it("refuses a missing body", async () => {
      const { client } = ctx()
      expectError(await client.raw({ path: PATH, headers: json }), 400, "INVALID_ARGUMENT", /Request body is empty/)
    })

    it("refuses another content type, and accepts a charset parameter", async () => {
      const { client, workspace } = ctx()
      const body = JSON.stringify({ data: { organizationId: "o" } })
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonp"]) {
        expectError(await client.raw({ path: PATH, headers: { "content-type": type }, body }), 400, "INVALID_ARGUMENT", "Content-Type must be application/json.")
      }
      const creds = await workspace()
      const ok = await client.raw({ path: PATH, headers: { "content-type": "Application/JSON; charset=utf-8", ...creds.headers }, body })
      expect(ok.status).toBe(200)
    })

    it("refuses GET and other methods on an operation", async () => {
      const { client } = ctx()
      for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
        const answer = await client.raw({ method, path: PATH, headers: json, ...(method !== "GET" && { body: "{\"data\":{}}" }) })
        expectError(answer, 400, "INVALID_ARGUMENT", `Method ${method} is not allowed: every operation is a POST.`)
      }
    })

    it("answers NOT_FOUND on an unknown path, whatever the method", async () => {
      const { client } = ctx()
      expectError(await client.raw({ path: "/v2/nothing/here", headers: json, body: "{\"data\":{}}" }), 404, "NOT_FOUND", "No operation at /v2/nothing/here.")
      expectError(await client.raw({ method: "GET", path: "/nothing" }), 404, "NOT_FOUND", "No operation at /nothing.")
      // GET / is not an operation but where the reference is (node-http/test/listener.test.ts checks it).
      expectError(await client.raw({ method: "POST", path: "/", headers: json, body: "{\"data\":{}}" }), 404, "NOT_FOUND", "No operation at /.")
      expectError(await client.raw({ path: "/v3/organizations/documents/get", headers: json, body: "{\"data\":{}}" }), 404, "NOT_FOUND")
    })

    it("refuses a body over the limit, and accepts one just under it", async () => {
      const { atrium, client, workspace } = ctx()
      const limit = atrium.options.maxBodyBytes
      const creds = await workspace()
      const frame = JSON.stringify({ data: { organizationId: "o", pad: "" } })
      const padded = (size: number) => JSON.stringify({ data: { organizationId: "o", pad: "x".repeat(size - frame.length) } })
      expectError(await client.raw({ path: PATH, headers: { ...json, ...creds.headers }, body: padded(limit + 1) }), 400, "INVALID_ARGUMENT", `Request body is larger than ${limit} bytes.`)
      // At the limit the body is read and decoded: `pad` is not a parameter of this operation.
      const at = await client.raw({ path: PATH, headers: { ...json, ...creds.headers }, body: padded(limit) })
      expectError(at, 400, "INVALID_ARGUMENT", "Invalid data.pad: is not a known parameter")
    })

    it("names every schema problem in details.issues", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const answer = await client.post(PATH, { organizationId: 5, pageSize: 0, documentIds: ["", "ok"] }, creds.headers)
      expectError(answer, 400, "INVALID_ARGUMENT", /^Invalid data\.organizationId: /)
      const paths = answer.body.error.details.issues.map((issue: { path: Array<string | number> }) => issue.path.join("."))
      expect(paths).toEqual(expect.arrayContaining(["data.organizationId", "data.pageSize", "data.documentIds.0"]))
      expect(answer.body.error.details.issues.every((issue: { message: string }) => issue.message.length > 0)).toBe(true)
    })

    it("refuses ids over 256 characters or with control characters, and accepts 256 unicode characters", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      expectError(await client.post(PATH, { organizationId: "o".repeat(257) }, creds.headers), 400, "INVALID_ARGUMENT", "Invalid data.organizationId: must be at most 256 characters")
      expectError(await client.post(PATH, { organizationId: "a\u0001b" }, creds.headers), 400, "INVALID_ARGUMENT", "Invalid data.organizationId: must not contain control characters")
      expect((await client.post(PATH, { organizationId: "é".repeat(256) }, creds.headers)).status).toBe(200)
    })
  })

  it("refuses the NUL character in any string, keys and nested metadata included, and writes nothing", async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    const nul = "Strings must not contain the NUL character (\\u0000)."
    for (const data of [
      { organizations: [{ organizationId: "o", organizationName: "a\u0000b" }] },
      { organizations: [{ organizationId: "o", note: { deep: ["x\u0000"] } }] },
      { organizations: [{ organizationId: "o", ["k\u0000"]: 1 }] }
    ]) {
      expectError(await client.post("/v2/organizations/add", data, creds.headers), 400, "INVALID_ARGUMENT", nul)
    }
    // A literal backslash-u-0000 text is not a NUL and is kept as written.
    const literal = await client.post("/v2/organizations/add", { organizations: [{ organizationId: "o", organizationName: "\\u0000" }] }, creds.headers)
    expect(literal.status).toBe(200)
    const listed = await client.post("/v2/organizations/get", {}, creds.headers)
    expect(listed.body.result.data).toEqual([{ id: "o", organizationName: "\\u0000", disabled: false }])
  })

  it("refuses lone surrogates in any string or key, keeps pairs, and writes nothing", async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    const lone = "Strings must be well-formed Unicode: a surrogate (\\ud800-\\udfff) must be one of a pair."
    const headers = { ...json, ...creds.headers }
    for (const body of [
      String.raw`{"data":{"organizations":[{"organizationId":"o","organizationName":"a\ud800b"}]}}`,
      String.raw`{"data":{"organizations":[{"organizationId":"o","metadata":{"x":["\udfff"]}}]}}`,
      String.raw`{"data":{"organizations":[{"organizationId":"o","metadata":{"\udc00k":1}}]}}`,
      String.raw`{"data":{"organizations":[{"organizationId":"o","organizationName":"\ude00\ud83d"}]}}`
    ]) {
      expectError(await client.raw({ path: "/v2/organizations/add", headers, body }), 400, "INVALID_ARGUMENT", lone)
    }
    expect((await client.post("/v2/organizations/get", {}, creds.headers)).body.result.data).toEqual([])
    // A pair (an emoji) is one character, written as an escape or as UTF-8.
    const pair = String.raw`{"data":{"organizations":[{"organizationId":"o","organizationName":"\ud83d\ude00 😀"}]}}`
    expect((await client.raw({ path: "/v2/organizations/add", headers, body: pair })).status).toBe(200)
    expect((await client.post("/v2/organizations/get", {}, creds.headers)).body.result.data[0].organizationName).toBe("😀 😀")
  })

  it("refuses JSON nested deeper than 64 levels with 400, wherever it is, and writes nothing", async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    const headers = { ...json, ...creds.headers }
    const nested = (depth: number, open: string, close: string) => open.repeat(depth) + "1" + close.repeat(depth)
    const tooDeep = "Request body is nested deeper than 64 levels of objects and arrays."
    for (const body of [
      // 5,000 levels: once a stack overflow in the decoder, answered 500 or crashing the process.
      `{"data":{"organizationIds":${nested(5000, "[", "]")}}}`,
      `{"data":{"organizations":[{"organizationId":"o","metadata":${nested(5000, '{"a":', "}")}}]}}`,
      // The body is level 1, data 2, organizations 3, the organization 4: 61 more arrays is 65.
      `{"data":{"organizations":[{"organizationId":"o","metadata":${nested(61, "[", "]")}}]}}`
    ]) {
      expectError(await client.raw({ path: "/v2/organizations/add", headers, body }), 400, "INVALID_ARGUMENT", tooDeep)
    }
    expect((await client.post("/v2/organizations/get", {}, creds.headers)).body.result.data).toEqual([])
    // 64 levels: metadata's object is level 5, its 59 arrays 6 to 64.
    const atLimit = `{"data":{"organizations":[{"organizationId":"o","metadata":{"a":${nested(59, "[", "]")}}}]}}`
    expect((await client.raw({ path: "/v2/organizations/add", headers, body: atLimit })).status).toBe(200)
  })

  it("refuses a body that is not valid UTF-8 rather than read U+FFFD in its place, and writes nothing", async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    const headers = { ...json, ...creds.headers }
    const around = (bytes: ReadonlyArray<number>) =>
      Buffer.concat([Buffer.from('{"data":{"organizations":[{"organizationId":"a'), Buffer.from(bytes), Buffer.from('"}]}}')])
    // A byte that starts nothing, a cut sequence, an overlong "/", an encoded surrogate: each once became "a\ufffd".
    for (const bytes of [[0xff], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
      expectError(await client.raw({ path: "/v2/organizations/add", headers, body: around(bytes) }), 400, "INVALID_ARGUMENT", "Request body is not valid UTF-8.")
    }
    expect((await client.post("/v2/organizations/get", {}, creds.headers)).body.result.data).toEqual([])
    // Well-formed UTF-8 (a euro sign, an emoji) is read as it is.
    expect((await client.raw({ path: "/v2/organizations/add", headers, body: around([0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80]) })).status).toBe(200)
    expect((await client.post("/v2/organizations/get", {}, creds.headers)).body.result.data.map((o: { id: string }) => o.id)).toEqual(["a€😀"])
  })

  it("refuses a number too large to be finite anywhere, free-form objects included, naming where it is", async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    const headers = { ...json, ...creds.headers }
    for (const [body, path] of [
      // JSON.parse reads these as Infinity, which metadata then stored as null.
      [`{"data":{"organizations":[{"organizationId":"o","metadata":{"x":[1,1e309]}}]}}`, ["data", "organizations", 0, "metadata", "x", 1]],
      [`{"data":{"organizations":[{"organizationId":"o","metadata":{"y":-2e400}}]}}`, ["data", "organizations", 0, "metadata", "y"]],
      [`{"data":{"organizationId":"o","pageSize":1${"0".repeat(400)}}}`, ["data", "pageSize"]]
    ] as const) {
      const answer = await client.raw({ path: path[1] === "pageSize" ? PATH : "/v2/organizations/add", headers, body })
      expectError(answer, 400, "INVALID_ARGUMENT", /^Invalid data\.\S+: must be a finite number \(at most 1\.8e308 in size\)$/)
      expect(answer.body.error.details.issues.map((issue: { path: unknown }) => issue.path)).toEqual([path])
    }
    expect((await client.post("/v2/organizations/get", {}, creds.headers)).body.result.data).toEqual([])
    // The largest finite numbers are numbers.
    const big = `{"data":{"organizations":[{"organizationId":"o","metadata":{"x":1.7976931348623157e308,"y":-1e308}}]}}`
    expect((await client.raw({ path: "/v2/organizations/add", headers, body: big })).status).toBe(200)
  })

  it("refuses a __proto__ key wherever it is, free-form objects included, naming where, and writes nothing", async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    const headers = { ...json, ...creds.headers }
    // Some free-form objects dropped it, others kept it: refused everywhere, one rule.
    for (const [path, body, where] of [
      ["/v2/organizations/add", `{"data":{"organizations":[{"organizationId":"o","metadata":{"__proto__":{"isAdmin":true}}}]}}`, "data.organizations[0].metadata.__proto__"],
      ["/v2/organizations/add", `{"data":{"organizations":[{"organizationId":"o","metadata":{"list":[{"a":1},{"\\u005f_proto__":1}]}}]}}`, "data.organizations[0].metadata.list[1].__proto__"],
      ["/v2/auth/generate_token", `{"data":{"userId":"u","userProperties":{"name":"n","email":"n@example.com","__proto__":{"isAdmin":true}},"permissions":{"resources":[]}}}`, "data.userProperties.__proto__"],
      ["/v2/workspace/advancedwebhook/messages/create", `{"data":{"eventType":"a.b","payload":{"deep":{"__proto__":null}}}}`, "data.payload.deep.__proto__"],
      [PATH, `{"data":{"__proto__":{},"organizationId":"o"}}`, "data.__proto__"]
    ] as const) {
      const answer = await client.raw({ path, headers, body })
      expectError(answer, 400, "INVALID_ARGUMENT", `Invalid ${where}: is not allowed as a key`)
      expect(answer.body.error.details.issues).toHaveLength(1)
    }
    expect((await client.post("/v2/organizations/get", {}, creds.headers)).body.result.data).toEqual([])
    // As a value, or as part of a key, it is only text.
    const text = `{"data":{"organizations":[{"organizationId":"o","metadata":{"k":"__proto__","__proto__x":1}}]}}`
    expect((await client.raw({ path: "/v2/organizations/add", headers, body: text })).status).toBe(200)
    expect((await client.post("/v2/organizations/get", {}, creds.headers)).body.result.data[0].metadata).toEqual({ k: "__proto__", __proto__x: 1 })
  })

  it("refuses a key given twice in one object at any depth, naming it, and writes nothing", async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    const headers = { ...json, ...creds.headers }
    const twice = "is given more than once: a key may appear only once in an object"
    for (const [path, body, where] of [
      // JSON.parse keeps the last: this issued an admin token.
      ["/v2/auth/generate_token", `{"data":{"userId":"u","userProperties":{"name":"n","email":"n@example.com","isAdmin":false,"isAdmin":true},"permissions":{"resources":[]}}}`, "data.userProperties.isAdmin"],
      ["/v2/organizations/add", `{"data":{"organizations":[{"organizationId":"o"},{"organizationId":"p","metadata":{"l":[0,{"k":1,"j":2, "k" :3}]}}]}}`, "data.organizations[1].metadata.l[1].k"],
      // The same key spelled with an escape is the same key.
      ["/v2/organizations/add", `{"data":{"organizations":[{"organizationId":"o","organization\\u0049d":"p"}]}}`, "data.organizations[0].organizationId"],
      ["/v2/organizations/add", `{"data":{"organizations":[{"organizationId":"o","metadata":{"a\\"b":1,"a\\u0022b":2}}]}}`, 'data.organizations[0].metadata.a"b'],
      [PATH, `{"data":{"organizationId":"o"},"data":{"organizationId":"p"}}`, "data"]
    ] as const) {
      const answer = await client.raw({ path, headers, body })
      expectError(answer, 400, "INVALID_ARGUMENT", `Invalid ${where}: ${twice}`)
    }
    expect((await client.post("/v2/organizations/get", {}, creds.headers)).body.result.data).toEqual([])
    // One key in sibling objects, colons, quotes and braces inside strings: nothing is given twice.
    const ok = String.raw`{"data":{"organizations":[{"organizationId":"o","metadata":{"k":"a:b","x:y":{"k":"}{\"k\":"},"u":"https://e.example/a?b=c:d","l":[{"k":1},{"k":2}]}},{"organizationId":"p","metadata":{"k":"\\"}}]}}`
    const added = await client.raw({ path: "/v2/organizations/add", headers, body: ok })
    expect(added.status, added.text).toBe(200)
    expect((await client.post("/v2/organizations/get", {}, creds.headers)).body.result.data.map((o: { metadata: unknown }) => o.metadata)).toEqual([
      { k: "a:b", "x:y": { k: '}{"k":' }, u: "https://e.example/a?b=c:d", l: [{ k: 1 }, { k: 2 }] },
      { k: "\\" }
    ])
  })

  describe("credentials", () => {
    it("answers PERMISSION_DENIED without, or with wrong, API-key credentials", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const data = { organizationId: "o" }
      expectError(await client.post(PATH, data), 403, "PERMISSION_DENIED", "Invalid API key.")
      expectError(await client.post(PATH, data, { "x-service-api-key": creds.apiKey }), 403, "PERMISSION_DENIED", "Invalid API key.")
      expectError(await client.post(PATH, data, { ...creds.headers, "x-service-auth-token": creds.authToken + "x" }), 403, "PERMISSION_DENIED", "Invalid API key.")
      expectError(await client.post(PATH, data, { ...creds.headers, "x-service-api-key": "atr_unknown" }), 403, "PERMISSION_DENIED", "Invalid API key.")
      // Workspace credentials are not API-key credentials.
      expectError(await client.post(PATH, data, creds.workspaceHeaders), 403, "PERMISSION_DENIED", "Invalid API key.")
    })

    it("answers PERMISSION_DENIED without, or with wrong, workspace credentials", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const other = await workspace()
      const path = "/v2/workspace/get"
      expectError(await client.post(path, {}), 403, "PERMISSION_DENIED", "Invalid workspace credentials.")
      expectError(await client.post(path, {}, { ...creds.workspaceHeaders, "x-service-workspace-auth-token": other.workspaceAuthToken }), 403, "PERMISSION_DENIED", "Invalid workspace credentials.")
      expectError(await client.post(path, {}, creds.headers), 403, "PERMISSION_DENIED", "Invalid workspace credentials.")
      expect((await client.post(path, {}, creds.workspaceHeaders)).status).toBe(200)
    })

    it("checks credentials before decoding the data", async () => {
      const { client } = ctx()
      expectError(await client.post(PATH, { organizationId: 5 }), 403, "PERMISSION_DENIED", "Invalid API key.")
    })

    it("stops accepting an auth token at once when it is reset", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      expect((await client.post(PATH, { organizationId: "o" }, creds.headers)).status).toBe(200)
      const reset = await client.post("/v2/workspace/authtoken/reset", { apiKey: creds.apiKey }, creds.workspaceHeaders)
      expect(reset.status).toBe(200)
      expectError(await client.post(PATH, { organizationId: "o" }, creds.headers), 403, "PERMISSION_DENIED", "Invalid API key.")
      const fresh = { ...creds.headers, "x-service-auth-token": reset.body.result.data.newAuthToken.token }
      expect((await client.post(PATH, { organizationId: "o" }, fresh)).status).toBe(200)
    })
  })

  describe("documents beside the operations", () => {
    it("serves /healthz and /openapi.json", async () => {
      const { client } = ctx()
      const health = await client.raw({ method: "GET", path: "/healthz" })
      expect(health).toMatchObject({ status: 200, body: { status: "ok" } })
      const openapi = await client.raw({ method: "GET", path: "/openapi.json" })
      expect(openapi.status).toBe(200)
      expect(openapi.body.openapi).toBe("3.1.0")
      expect(Object.keys(openapi.body.paths)).toContain(PATH)
    })

    it("answers POST on a document path with NOT_FOUND", async () => {
      const { client } = ctx()
      const answer = await client.raw({ path: "/healthz", headers: json, body: "{\"data\":{}}" })
      expectError(answer, 404, "NOT_FOUND")
    })
  })
})
