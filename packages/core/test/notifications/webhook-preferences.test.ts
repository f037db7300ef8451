/**
 * Slack and the host's other channels (docs/notifications.md, "Slack and other channels"): every
 * comment event's webhook data carries its thread's involved users' preferences, as
 * `usersOrganizationNotificationsConfig` or, once one of them has a document-level value,
 * `usersDocumentNotificationsConfig` (docs/decisions.md, "Notifications"). Over every storage, to a
 * real receiver; a host's listener is told the same data.
 */
import type { EventListener, NewEvent } from "@atrium/core"
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { type Receiver, startReceiver, verified } from "../../../../test-support/receiver.js"
import type { TestCredentials } from "../../src/testing/index.js"

/** What a host's own listener is told of comment events. */
const told: Array<NewEvent> = []
const host: EventListener = {
  name: "test host",
  follows: () => Effect.succeed(true),
  inTransaction: ({ events }) => Effect.sync(() => void told.push(...events.filter((event) => event.type.startsWith("comment"))))
}

forEachBackend("comment events carry the involved users' preferences", (ctx: () => Started) => {
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const user = (userId: string) => ({ userId, name: `User ${userId}` })

  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(() => receiver.close())

  /** A workspace whose comment events go to the receiver; `deliveries()` runs them and answers their bodies, verified. */
  const hooked = async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/organizations/add", { organizations: [{ organizationId: "org" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "doc" }, { documentId: "other" }] })
    await ok(creds, "/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
    const endpoint = (await ok(creds, "/v2/workspace/advancedwebhook/endpoints/create", { url: receiver.url })).data
    const { secret } = (await ok(creds, "/v2/workspace/advancedwebhook/endpoints/secret/get", { endpointId: endpoint.id })).data
    let seen = receiver.received.length
    const deliveries = async (count: number) => {
      const deadline = Date.now() + 20_000
      while (receiver.received.length < seen + count && Date.now() < deadline) {
        await ctx().atrium.runDue()
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      const bodies = receiver.received.slice(seen).map((r) => verified(secret, r))
      seen = receiver.received.length
      expect(bodies).toHaveLength(count)
      return bodies
    }
    return { creds, deliveries }
  }

  /** ann starts a thread in `doc`, mentioning bob and assigned to cat: one `comment_annotation.add`. */
  const thread = (creds: TestCredentials, annotationId: string) =>
    ok(creds, "/v2/commentannotations/add", {
      organizationId: "org",
      documentId: "doc",
      commentAnnotations: [{
        annotationId,
        assignedTo: user("cat"),
        commentData: [{ commentText: "hi @bob", from: user("ann"), taggedUserContacts: [{ userId: "bob", text: "@bob" }] }]
      }]
    })
  const reply = (creds: TestCredentials, annotationId: string, from: string) =>
    ok(creds, "/v2/commentannotations/comments/add", { organizationId: "org", documentId: "doc", annotationId, commentData: [{ commentText: "ok", from: user(from) }] })

  const DEFAULTS = { inbox: "ALL", email: "MINE" }

  it("with nothing set: usersOrganizationNotificationsConfig, every involved user (the actor too) at the defaults; the body keeps its six keys", async () => {
    const { creds, deliveries } = await hooked()
    await thread(creds, "t1")
    const [body] = await deliveries(1)
    expect(Object.keys(body).sort()).toEqual(["actionType", "data", "event", "source", "timestamp", "webhookId"])
    expect(body.event).toBe("comment_annotation.add")
    expect(body.data.usersOrganizationNotificationsConfig).toEqual({ ann: DEFAULTS, bob: DEFAULTS, cat: DEFAULTS })
    expect(body.data).not.toHaveProperty("usersDocumentNotificationsConfig")
    // The host's listener was told the same data as the webhook carries.
    expect(told.map((event) => event.data)).toContainEqual(body.data)
  })

  it("organization-level values, as set; then a document-level value for one of them: usersDocumentNotificationsConfig, each user resolved (document, organization, default)", async () => {
    const { creds, deliveries } = await hooked()
    await ok(creds, "/v2/notifications/config/set", { organizationId: "org", userIds: ["ann", "bob"], config: { email: "ALL", slack: "MINE" } })
    await thread(creds, "t1")
    const [added] = await deliveries(1)
    expect(added.data.usersOrganizationNotificationsConfig).toEqual({
      ann: { inbox: "ALL", email: "ALL", slack: "MINE" },
      bob: { inbox: "ALL", email: "ALL", slack: "MINE" },
      cat: DEFAULTS
    })
    // A document-level value elsewhere changes nothing here.
    await ok(creds, "/v2/notifications/config/set", { organizationId: "org", userIds: ["cat"], documentIds: ["other"], config: { inbox: "NONE" } })
    await reply(creds, "t1", "dan")
    const [replied] = await deliveries(1)
    expect(replied.data).not.toHaveProperty("usersDocumentNotificationsConfig")
    expect(replied.data.usersOrganizationNotificationsConfig).toEqual({
      ann: { inbox: "ALL", email: "ALL", slack: "MINE" },
      bob: { inbox: "ALL", email: "ALL", slack: "MINE" },
      cat: DEFAULTS,
      dan: DEFAULTS
    })
    // bob sets slack for this document.
    await ok(creds, "/v2/notifications/config/set", { organizationId: "org", userIds: ["bob"], documentIds: ["doc"], config: { slack: "ALL", inbox: "NONE" } })
    await reply(creds, "t1", "ann")
    const [again] = await deliveries(1)
    expect(again.event).toBe("comment.add")
    expect(again.data).not.toHaveProperty("usersOrganizationNotificationsConfig")
    expect(again.data.usersDocumentNotificationsConfig).toEqual({
      ann: { inbox: "ALL", email: "ALL", slack: "MINE" },
      bob: { inbox: "NONE", email: "ALL", slack: "ALL" },
      cat: DEFAULTS,
      dan: DEFAULTS
    })
    // Every comment event carries it: a status change too (no actor named, the thread's users all the same).
    await ok(creds, "/v2/commentannotations/update", { organizationId: "org", documentId: "doc", annotationIds: ["t1"], updatedData: { status: { id: "RESOLVED", name: "Resolved", type: "terminal" } } })
    const [status] = await deliveries(1)
    expect(status.event).toBe("comment_annotation.status_change")
    expect(Object.keys(status.data.usersDocumentNotificationsConfig).sort()).toEqual(["ann", "bob", "cat", "dan"])
  })
}, { listeners: [host] })
