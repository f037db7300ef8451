/**
 * documents/access/update, documents/access/disablestate/update and workspace/apikeyconfig over
 * every storage (issue 23 item 2; compatible-api-facts.md §1.3 and §1.7): the facts' shapes and
 * messages, a missing document failing only its item, the access rule following each write
 * (DocumentAccess.check), the key's default access type, the events, and the caps.
 */
import * as Effect from "effect/Effect"
import { expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { expectCap } from "../../../../test-support/caps.js"
import { eventRecorder } from "../../../../test-support/eventRecorder.js"
import { DocumentAccess } from "../../src/access/DocumentAccess.js"
import { MAX_DOCUMENT_ACCESS_IDS } from "../../src/documents/DocumentSchemas.js"
import type { TestCredentials } from "../../src/testing/index.js"

const { eventsOf, listener: recorder, reset } = eventRecorder()

forEachBackend("documents access", (ctx: () => Started) => {
  const post = (creds: TestCredentials, path: string, data: unknown) => ctx().client.post(path, data, creds.headers)
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await post(creds, path, data)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const check = (creds: TestCredentials, documentId: string) =>
    ctx().atrium.runtime.runPromise(
      Effect.map(DocumentAccess.check({ apiKey: creds.apiKey, userId: "nobody", organizationId: "org", documentId }), (d) => [d.accessRole, d.reason])
    )

  /**
   * "org": folder "closed" (restricted) holding "secret", "readme" at the root. The recorder then
   * forgets: the tests' events only (the backends' sequential ids make the same keys again, and
   * adding a document in a folder emits its own: access/events.test.ts).
   */
  const workspace = async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "closed", accessType: "restricted" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "closed", documents: [{ documentId: "secret" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "readme" }] })
    reset()
    return creds
  }

  it("access/update gives documents a type of their own, answered as the facts show; a missing document fails its item only", async () => {
    const creds = await workspace()
    const answer = await post(creds, "/v2/organizations/documents/access/update", { organizationId: "org", documentIds: ["secret", "gone"], accessType: "public" })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      result: {
        status: "success",
        message: "Updated access for documents successfully.",
        data: {
          secret: { success: true, accessType: "public", message: "Document access type updated." },
          gone: { success: false, message: "Document does not exist" }
        }
      }
    })
    // Its own type now wins over the restricted folder's, and documents/get shows it.
    expect(await check(creds, "secret")).toEqual(["editor", "public document"])
    const listed = await ok(creds, "/v2/organizations/documents/get", { organizationId: "org", documentIds: ["secret"] })
    expect(listed.data[0].accessType).toBe("public")
    await ok(creds, "/v2/organizations/documents/access/update", { organizationId: "org", documentIds: ["readme"], accessType: "restricted" })
    expect(await check(creds, "readme")).toEqual([null, "restricted document"])
    expect(eventsOf(creds.apiKey).map((e) => [e.type, e.data, e.channels])).toEqual([
      ["access.document_type_updated", { resource: { type: "document", id: "secret", organizationId: "org" }, accessType: "public" }, ["org", "org/secret"]],
      ["access.document_type_updated", { resource: { type: "document", id: "readme", organizationId: "org" }, accessType: "restricted" }, ["org", "org/readme"]]
    ])
  })

  it("a document with a type of its own no longer follows its folder's", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/organizations/documents/access/update", { organizationId: "org", documentIds: ["secret"], accessType: "restricted" })
    await ok(creds, "/v2/organizations/folders/access/update", { organizationId: "org", folderIds: ["closed"], accessType: "public" })
    expect(await check(creds, "secret")).toEqual([null, "restricted document"])
  })

  it("access/disablestate/update makes documents read only and back; a missing document fails its item only", async () => {
    const creds = await workspace()
    const answer = await post(creds, "/v2/organizations/documents/access/disablestate/update", { organizationId: "org", documentIds: ["readme", "gone"], disabled: true })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      result: {
        status: "success",
        message: "Updated disable state for documents successfully.",
        data: {
          readme: { success: true, disabled: true, message: "Document disabled state updated." },
          gone: { success: false, message: "Document does not exist" }
        }
      }
    })
    expect(await check(creds, "readme")).toEqual(["viewer", "public document"])
    expect((await ok(creds, "/v2/organizations/documents/get", { organizationId: "org", documentIds: ["readme"] })).data[0].disabled).toBe(true)
    await ok(creds, "/v2/organizations/documents/access/disablestate/update", { organizationId: "org", documentIds: ["readme"], disabled: false })
    expect(await check(creds, "readme")).toEqual(["editor", "public document"])
    expect(eventsOf(creds.apiKey).map((e) => [e.type, e.data])).toEqual([
      ["access.document_disabled_updated", { resource: { type: "document", id: "readme", organizationId: "org" }, disabled: true }],
      ["access.document_disabled_updated", { resource: { type: "document", id: "readme", organizationId: "org" }, disabled: false }]
    ])
  })

  it("refuses a disabled organization, and another key's documents are not touched", async () => {
    const creds = await workspace()
    const other = await ctx().workspace()
    const theirs = await ok(other, "/v2/organizations/documents/access/update", { organizationId: "org", documentIds: ["readme"], accessType: "restricted" })
    expect(theirs.data.readme).toEqual({ success: false, message: "Document does not exist" })
    expect(await check(creds, "readme")).toEqual(["editor", "public document"])
    await ok(creds, "/v2/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: true })
    for (const [path, data] of [
      ["/v2/organizations/documents/access/update", { organizationId: "org", documentIds: ["readme"], accessType: "restricted" }],
      ["/v2/organizations/documents/access/disablestate/update", { organizationId: "org", documentIds: ["readme"], disabled: true }]
    ] as const) {
      const refused = await post(creds, path, data)
      expect(refused.status, path).toBe(403)
      expect(refused.body.error.status).toBe("PERMISSION_DENIED")
    }
  })

  it("apikeyconfig sets the access type of documents with none of their own and no folder, and of documents not added yet", async () => {
    const creds = await workspace()
    expect(await ok(creds, "/v2/workspace/apikeyconfig/get", {})).toEqual({
      status: "success",
      message: "API key configuration retrieved successfully.",
      data: { defaultDocumentAccessType: "public" }
    })
    const updated = await post(creds, "/v2/workspace/apikeyconfig/update", { defaultDocumentAccessType: "restricted" })
    expect(updated.status).toBe(200)
    expect(updated.body.result).toEqual({
      status: "success",
      message: "API key configuration updated successfully.",
      data: { defaultDocumentAccessType: "restricted" }
    })
    expect((await ok(creds, "/v2/workspace/apikeyconfig/get", {})).data).toEqual({ defaultDocumentAccessType: "restricted" })
    expect(await check(creds, "readme")).toEqual([null, "restricted document"])
    expect(await check(creds, "not-added")).toEqual([null, "restricted document"])
    await ok(creds, "/v2/workspace/apikeyconfig/update", { defaultDocumentAccessType: "organizationPrivate" })
    expect(await check(creds, "readme")).toEqual([null, "not an organization member"])
    // A document of its own type or in a folder does not follow the default.
    await ok(creds, "/v2/organizations/folders/access/update", { organizationId: "org", folderIds: ["closed"], accessType: "public" })
    expect(await check(creds, "secret")).toEqual(["editor", "public document"])
    expect(eventsOf(creds.apiKey).filter((e) => e.type === "access.default_type_updated").map((e) => [e.data, e.channels])).toEqual([
      [{ defaultDocumentAccessType: "restricted" }, []],
      [{ defaultDocumentAccessType: "organizationPrivate" }, []]
    ])
    // Another key keeps its own default.
    const other = await ctx().workspace()
    expect((await ok(other, "/v2/workspace/apikeyconfig/get", {})).data).toEqual({ defaultDocumentAccessType: "public" })
  })

  it("apikeyconfig/update wants a field (the facts' message) and refuses the hosted settings Atrium does not act on", async () => {
    const creds = await ctx().workspace()
    const empty = await post(creds, "/v2/workspace/apikeyconfig/update", {})
    expect(empty.status).toBe(400)
    expect(empty.body.error).toMatchObject({ status: "INVALID_ARGUMENT", message: "At least one field must be provided for update" })
    const unknown = await post(creds, "/v2/workspace/apikeyconfig/update", { requireJwtToken: true })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.status).toBe("INVALID_ARGUMENT")
    const wrong = await post(creds, "/v2/workspace/apikeyconfig/update", { defaultDocumentAccessType: "private" })
    expect(wrong.status).toBe(400)
  })

  it(`both operations take ${MAX_DOCUMENT_ACCESS_IDS} documentIds; one more is refused, nothing written`, async () => {
    const creds = await workspace()
    const ids = (n: number, tag: string) => [...Array.from({ length: n - 1 }, (_, i) => `${tag}-${i}`), "readme"]
    const post1 = (path: string, data: unknown) => post(creds, path, data)
    await expectCap({
      post: post1,
      path: "/v2/organizations/documents/access/update",
      field: "documentIds",
      max: MAX_DOCUMENT_ACCESS_IDS,
      data: (n, tag) => ({ organizationId: "org", documentIds: ids(n, tag), accessType: tag === "over" ? "restricted" : "organizationPrivate" })
    })
    await expectCap({
      post: post1,
      path: "/v2/organizations/documents/access/disablestate/update",
      field: "documentIds",
      max: MAX_DOCUMENT_ACCESS_IDS,
      data: (n, tag) => ({ organizationId: "org", documentIds: ids(n, tag), disabled: tag === "over" })
    })
    const [readme] = (await ok(creds, "/v2/organizations/documents/get", { organizationId: "org", documentIds: ["readme"] })).data
    expect(readme).toMatchObject({ accessType: "organizationPrivate", disabled: false })
  })
}, { listeners: [recorder] })
