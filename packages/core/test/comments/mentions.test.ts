/**
 * commentannotations/get's `mentionedUserIds` (facts §2.2; issue 26): the threads a comment of
 * which mentions any of the users, combined with the other filters, on the server and client API.
 * Over every storage.
 */
import { expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import type { TestCredentials } from "../../src/testing/index.js"

forEachBackend("commentannotations/get mentionedUserIds", (ctx: () => Started) => {
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const from = { userId: "ann" }
  const thread = (annotationId: string, mentioned: ReadonlyArray<string>, documentId = "d1") => ({
    organizationId: "org",
    documentId,
    createOrganization: true,
    createDocument: true,
    commentAnnotations: [{ annotationId, commentData: [{ commentText: "x", from, taggedUserContacts: mentioned.map((userId) => ({ userId })) }] }]
  })
  const found = async (creds: TestCredentials, data: Record<string, unknown>) =>
    (await ok(creds, "/v2/commentannotations/get", { organizationId: "org", ...data })).data.map((t: { annotationId: string }) => t.annotationId).sort()

  it("finds the threads that mention any of the users, in any comment, with the other filters", async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/commentannotations/add", thread("t-bob", ["bob"]))
    await ok(creds, "/v2/commentannotations/add", thread("t-both", ["bob", "cat"]))
    await ok(creds, "/v2/commentannotations/add", thread("t-none", []))
    await ok(creds, "/v2/commentannotations/add", thread("t-other-doc", ["cat"], "d2"))
    await ok(creds, "/v2/commentannotations/comments/add", {
      organizationId: "org",
      documentId: "d1",
      annotationId: "t-none",
      commentData: [{ commentText: "later", from, taggedUserContacts: [{ userId: "dan" }] }]
    })
    expect(await found(creds, { mentionedUserIds: ["bob"] })).toEqual(["t-both", "t-bob"].sort())
    expect(await found(creds, { mentionedUserIds: ["cat"] })).toEqual(["t-both", "t-other-doc"])
    expect(await found(creds, { mentionedUserIds: ["cat"], documentId: "d1" })).toEqual(["t-both"])
    expect(await found(creds, { mentionedUserIds: ["dan", "bob"] })).toEqual(["t-bob", "t-both", "t-none"])
    expect(await found(creds, { mentionedUserIds: ["nobody"] })).toEqual([])
    const over = await ctx().client.post("/v2/commentannotations/get", { organizationId: "org", mentionedUserIds: Array.from({ length: 31 }, (_, i) => `u${i}`) }, creds.headers)
    expect(over.status).toBe(400)
    expect(over.body.error.message).toContain("data.mentionedUserIds")
  })
})
