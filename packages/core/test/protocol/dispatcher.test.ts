import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { afterEach, describe, expect, it, vi } from "vitest"
import { DocumentsRepo } from "../../src/documents/DocumentsRepo.js"
import { StorageHealth } from "../../src/ports/StorageHealth.js"
import { createTestWorkspace, directClient, MemoryStorage, testAtrium } from "../../src/testing/index.js"

const GET_DOCUMENTS = "/v2/organizations/documents/get"

describe("dispatcher", () => {
  const opened: Array<{ dispose: () => Promise<void> }> = []
  const open = (...args: Parameters<typeof testAtrium>) => {
    const atrium = testAtrium(...args)
    opened.push(atrium)
    return atrium
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((a) => a.dispose()))
    vi.restoreAllMocks()
  })

  it("answers a defect with INTERNAL and no internals, and logs the cause", async () => {
    const errors: Array<string> = []
    vi.spyOn(console, "error").mockImplementation((...args) => void errors.push(args.join(" ")))
    vi.spyOn(console, "log").mockImplementation((...args) => void errors.push(args.join(" ")))
    const dying = Layer.effect(
      DocumentsRepo,
      Effect.map(DocumentsRepo, (repo) => ({ ...repo, list: () => Effect.die(new Error("disk on fire: secret-detail")) }))
    ).pipe(Layer.provide(MemoryStorage))
    const atrium = open(Layer.merge(MemoryStorage, dying))
    const client = directClient(atrium)
    const creds = await createTestWorkspace(client)
    const answer = await client.post(GET_DOCUMENTS, { organizationId: "o" }, creds.headers)
    expect(answer.status).toBe(500)
    expect(answer.body).toEqual({ error: { status: "INTERNAL", message: "Internal error." } })
    expect(answer.text).not.toContain("secret-detail")
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(errors.join("\n")).toContain("secret-detail")
  })

  it("answers /healthz 503 when storage does not answer", async () => {
    const sick = Layer.merge(MemoryStorage, Layer.succeed(StorageHealth, { ping: Effect.fail("down") }))
    const client = directClient(open(sick))
    const answer = await client.raw({ method: "GET", path: "/healthz" })
    expect(answer).toMatchObject({ status: 503, body: { status: "unavailable" } })
  })

  it("answers UNAVAILABLE on every request when storage cannot be opened", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined)
    const broken = Layer.fail(new Error("cannot open")) as unknown as typeof MemoryStorage
    const client = directClient(open(broken))
    const answer = await client.post(GET_DOCUMENTS, { organizationId: "o" })
    expect(answer).toMatchObject({ status: 503, body: { error: { status: "UNAVAILABLE", message: "Storage is unavailable." } } })
  })

  it("reads credentials under the configured header prefix only", async () => {
    const client = directClient(open(MemoryStorage, { headerPrefix: "x-velt" }))
    const creds = await createTestWorkspace(client)
    const velt = { "x-velt-api-key": creds.apiKey, "x-velt-auth-token": creds.authToken }
    expect((await client.post(GET_DOCUMENTS, { organizationId: "o" }, velt)).status).toBe(200)
    expect((await client.post(GET_DOCUMENTS, { organizationId: "o" }, creds.headers)).status).toBe(403)
  })

  it("honours a smaller body limit", async () => {
    const client = directClient(open(MemoryStorage, { maxBodyBytes: 64 }))
    const answer = await client.post(GET_DOCUMENTS, { organizationId: "o".repeat(64) })
    expect(answer.body.error).toEqual({ status: "INVALID_ARGUMENT", message: "Request body is larger than 64 bytes." })
  })

  it("refuses a disabled organization's data on every gated operation, until re-enabled", async () => {
    const client = directClient(open(MemoryStorage))
    const creds = await createTestWorkspace(client)
    await client.post("/v1/organizations/documents/add", { organizationId: "o", documents: [{ documentId: "d" }] }, creds.headers)
    const disable = (disabled: boolean) => client.post("/v1/organizations/access/disablestate/update", { organizationIds: ["o"], disabled }, creds.headers)
    expect((await disable(true)).body.result.data.o).toEqual({ success: true, id: "o", message: "Updated disable state for organization Successfully" })
    const read = await client.post(GET_DOCUMENTS, { organizationId: "o" }, creds.headers)
    expect(read).toMatchObject({ status: 403, body: { error: { status: "PERMISSION_DENIED", message: "Organization o is disabled." } } })
    const write = await client.post("/v1/organizations/documents/add", { organizationId: "o", documents: [{ documentId: "e" }] }, creds.headers)
    expect(write.status).toBe(403)
    await disable(false)
    const again = await client.post(GET_DOCUMENTS, { organizationId: "o" }, creds.headers)
    expect(again.body.result.data.map((d: { id: string }) => d.id)).toEqual(["d"])
  })

  it("reports an unknown organization on disablestate/update and creates nothing", async () => {
    const client = directClient(open(MemoryStorage))
    const creds = await createTestWorkspace(client)
    const answer = await client.post("/v1/organizations/access/disablestate/update", { organizationIds: ["ghost"], disabled: true }, creds.headers)
    expect(answer.body.result).toEqual({
      status: "success",
      message: "Updated disable state for Organization(s) successfully.",
      data: { ghost: { success: false, id: "ghost", message: "Organization does not exist" } }
    })
    const listed = await client.post("/v2/organizations/get", {}, creds.headers)
    expect(listed.body.result.data).toEqual([])
  })
})
