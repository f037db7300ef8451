/**
 * folders/access/update over every storage (issue 23 item 2; compatible-api-facts.md §1.7): the
 * facts' item shape, a missing folder failing its item only, the effective access type recomputed
 * for the subfolders that follow, documents that follow their folder reading it at check time
 * (DocumentAccess.check), the events, and the cap.
 */
import * as Effect from "effect/Effect"
import { expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { expectCap } from "../../../../test-support/caps.js"
import { eventRecorder } from "../../../../test-support/eventRecorder.js"
import { DocumentAccess } from "../../src/access/DocumentAccess.js"
import { MAX_FOLDER_ACCESS_IDS } from "../../src/folders/FolderSchemas.js"
import type { TestCredentials } from "../../src/testing/index.js"

const { eventsOf, listener: recorder, reset } = eventRecorder()

forEachBackend("folders access", (ctx: () => Started) => {
  const post = (creds: TestCredentials, path: string, data: unknown) => ctx().client.post(path, data, creds.headers)
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await post(creds, path, data)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const update = (creds: TestCredentials, data: Record<string, unknown>) => post(creds, "/v2/organizations/folders/access/update", { organizationId: "org", ...data })
  const check = (creds: TestCredentials, documentId: string) =>
    ctx().atrium.runtime.runPromise(
      Effect.map(DocumentAccess.check({ apiKey: creds.apiKey, userId: "nobody", organizationId: "org", documentId }), (d) => [d.accessRole, d.reason])
    )
  /** Each folder's stored (effective) access type and whether it follows its parent. */
  const folders = async (creds: TestCredentials) =>
    Object.fromEntries(
      (await ok(creds, "/v2/organizations/folders/get", { organizationId: "org" })).data.map((
        f: { folderId: string; accessType: string; inheritAccessFromParent: boolean }
      ) => [f.folderId, `${f.accessType}${f.inheritAccessFromParent ? " (inherited)" : ""}`])
    )

  /**
   * "top" (public, its own) > "mid" (follows) > "leaf" (follows), holding "deep" two levels below
   * "top"; "mid" > "own" (public, its own) > "under" (follows); "side" (public, its own).
   */
  const workspace = async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/organizations/folders/add", {
      organizationId: "org",
      createOrganization: true,
      folders: [
        { folderId: "top", accessType: "public" },
        { folderId: "mid", parentFolderId: "top" },
        { folderId: "leaf", parentFolderId: "mid" },
        { folderId: "own", parentFolderId: "mid", accessType: "public" },
        { folderId: "under", parentFolderId: "own" },
        { folderId: "side", accessType: "public" }
      ]
    })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "leaf", documents: [{ documentId: "deep" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "under", documents: [{ documentId: "kept" }] })
    reset() // the tests' events only (adding documents in folders emits its own: access/events.test.ts)
    return creds
  }

  it("a folder made restricted closes a document two levels down that follows it; subfolders with a type of their own keep theirs", async () => {
    const creds = await workspace()
    expect(await check(creds, "deep")).toEqual(["editor", "public document"])
    const answer = await update(creds, { folderIds: ["top", "gone"], accessType: "restricted" })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      result: {
        status: "success",
        message: "Updated access for folders successfully.",
        data: {
          top: { success: true, accessType: "restricted", inheritFromParent: false, message: "Folder access type updated." },
          gone: { success: false, message: "Folder does not exist" }
        }
      }
    })
    expect(await check(creds, "deep")).toEqual([null, "restricted document"])
    expect(await check(creds, "kept")).toEqual(["editor", "public document"])
    expect(await folders(creds)).toEqual({
      top: "restricted",
      mid: "restricted (inherited)",
      leaf: "restricted (inherited)",
      own: "public",
      under: "public (inherited)",
      side: "public"
    })
    expect(eventsOf(creds.apiKey).map((e) => [e.type, e.data, e.channels])).toEqual([
      ["access.folder_type_updated", { resource: { type: "folder", id: "top", organizationId: "org" }, accessType: "restricted", inheritFromParent: false }, ["org"]],
      ["access.folder_type_updated", { resource: { type: "folder", id: "mid", organizationId: "org" }, accessType: "restricted", inheritFromParent: true }, ["org"]],
      ["access.folder_type_updated", { resource: { type: "folder", id: "leaf", organizationId: "org" }, accessType: "restricted", inheritFromParent: true }, ["org"]]
    ])
  })

  it("inheritFromParent makes a folder follow its parent again (public at the root), its subtree with it; accessType is then null", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/organizations/folders/access/update", { organizationId: "org", folderIds: ["top"], accessType: "restricted" })
    await ok(creds, "/v2/organizations/folders/access/update", { organizationId: "org", folderIds: ["own"], accessType: "organizationPrivate" })
    const answer = await update(creds, { folderIds: ["own", "top"], inheritFromParent: true })
    expect(answer.body.result.data).toEqual({
      own: { success: true, accessType: null, inheritFromParent: true, message: "Folder access type updated." },
      top: { success: true, accessType: null, inheritFromParent: true, message: "Folder access type updated." }
    })
    // "own" followed "mid" (restricted then); "top" then went back to public at the root, and "mid", "leaf", "own", "under" with it.
    expect(await folders(creds)).toEqual({
      top: "public (inherited)",
      mid: "public (inherited)",
      leaf: "public (inherited)",
      own: "public (inherited)",
      under: "public (inherited)",
      side: "public"
    })
    expect(await check(creds, "deep")).toEqual(["editor", "public document"])
    expect(await check(creds, "kept")).toEqual(["editor", "public document"])
  })

  it("wants accessType unless the folder inherits, and refuses a disabled organization", async () => {
    const creds = await workspace()
    const missing = await update(creds, { folderIds: ["top"] })
    expect(missing.status).toBe(400)
    expect(missing.body.error.message).toBe("Invalid data.accessType: is required unless inheritFromParent is true")
    const stillOwn = await update(creds, { folderIds: ["top"], inheritFromParent: false })
    expect(stillOwn.status).toBe(400)
    await ok(creds, "/v2/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: true })
    const refused = await update(creds, { folderIds: ["top"], accessType: "restricted" })
    expect(refused.status).toBe(403)
    expect(refused.body.error.status).toBe("PERMISSION_DENIED")
  })

  it("another key's folders are not touched", async () => {
    const creds = await workspace()
    const other = await ctx().workspace()
    const theirs = await ok(other, "/v2/organizations/folders/access/update", { organizationId: "org", folderIds: ["top"], accessType: "restricted" })
    expect(theirs.data.top).toEqual({ success: false, message: "Folder does not exist" })
    expect(await check(creds, "deep")).toEqual(["editor", "public document"])
  })

  it(`takes ${MAX_FOLDER_ACCESS_IDS} folderIds; one more is refused, nothing written`, async () => {
    const creds = await workspace()
    const ids = (n: number, tag: string) => [...Array.from({ length: n - 1 }, (_, i) => `${tag}-${i}`), "side"]
    await expectCap({
      post: (path, data) => post(creds, path, data),
      path: "/v2/organizations/folders/access/update",
      field: "folderIds",
      max: MAX_FOLDER_ACCESS_IDS,
      data: (n, tag) => ({ organizationId: "org", folderIds: ids(n, tag), accessType: tag === "over" ? "restricted" : "organizationPrivate" })
    })
    expect((await folders(creds)).side).toBe("organizationPrivate")
  })
}, { listeners: [recorder] })
