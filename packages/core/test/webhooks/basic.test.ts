/**
 * workspace/webhookconfig: basic (v1) webhooks (issue 28). The settings read back as the hosted
 * service shows them, bad ones are refused naming why, and once enabled every comment event the
 * triggers let through reaches rawNotificationUrl on loopback: unsigned, in the v1 shape, with
 * `Authorization: Basic <authToken>`, whether or not advanced webhooks are on; the basic endpoint
 * is none of the advanced ones.
 */
import type { TestCredentials } from "@atrium/core/testing"
import { afterAll, beforeAll, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { type Receiver, startReceiver } from "../../../../test-support/receiver.js"
import { keyCalls } from "../../../../test-support/calls.js"

let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())

/** The v1 bodies that arrived about `annotationId`. */
const arrivedAbout = (annotationId: string) =>
  receiver.received
    .map((r) => ({ headers: r.headers, body: JSON.parse(r.body) as Record<string, any> }))
    .filter((r) => r.body.commentAnnotation?.annotationId === annotationId)

forEachBackend("workspace webhookconfig (basic webhooks)", (ctx) => {
  const { ok, post } = keyCalls(() => ctx().client)
  const thread = (creds: TestCredentials, annotationId: string) =>
    ok(creds, "/v2/commentannotations/add", {
      organizationId: "org",
      documentId: "doc",
      commentAnnotations: [{ annotationId, commentData: [{ commentId: 1, commentText: "hello", from: { userId: "ann", name: "Ann" } }] }]
    })
  /** Runs every due delivery, then waits for `count` bodies about `annotationId` (0: makes sure none came). */
  const delivered = async (annotationId: string, count: number) => {
    await ctx().atrium.runDue()
    if (count === 0) {
      await new Promise((resolve) => setTimeout(resolve, 200))
    } else {
      const deadline = Date.now() + 20_000
      while (arrivedAbout(annotationId).length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return arrivedAbout(annotationId)
  }

  it("reads the hosted default, and refuses an update without a field, a bad URL, encoding, encryption and a processed URL, storing nothing", async () => {
    const creds = await ctx().workspace()
    const empty = { useWebhookService: false, webhookServiceConfig: { authToken: "", rawNotificationUrl: "", processedNotificationUrl: "" } }
    expect(await ok(creds, "/v2/workspace/webhookconfig/get", {})).toEqual({ status: "success", message: "Webhook configuration retrieved successfully.", data: empty })
    const refusals: Array<[unknown, string]> = [
      [{}, "at least one of useWebhookService or webhookServiceConfig must be provided"],
      [{ useWebhookService: true }, "rawNotificationUrl is required"],
      [{ webhookServiceConfig: { rawNotificationUrl: "ftp://example.com/hook" } }, "rawNotificationUrl must be a valid http(s) URL"],
      [{ webhookServiceConfig: { encodeData: true } }, "encodeData and encryptData are not supported"],
      [{ webhookServiceConfig: { encryptData: true } }, "encodeData and encryptData are not supported"],
      [{ webhookServiceConfig: { processedNotificationUrl: "https://example.com/p" } }, "processedNotificationUrl is not supported"]
    ]
    for (const [body, why] of refusals) {
      const refused = await post(creds, "/v2/workspace/webhookconfig/update", body)
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect(refused.body.error).toEqual({ status: "INVALID_ARGUMENT", message: expect.stringContaining("Invalid webhook service configuration: ") })
      expect(refused.body.error.message, JSON.stringify(body)).toContain(why)
    }
    expect((await ok(creds, "/v2/workspace/webhookconfig/get", {})).data).toEqual(empty)
  })

  it("enabled, sends each comment event unsigned in the v1 shape with the Basic token, advanced webhooks off; activities are not comment events", async () => {
    const creds = await ctx().workspace()
    // The receiver is shared by every storage's run (whose keys may repeat): each run's threads are told apart by a tag.
    const tag = Math.random().toString(36).slice(2, 10)
    const enabled = await ok(creds, "/v2/workspace/webhookconfig/update", {
      useWebhookService: true,
      webhookServiceConfig: { rawNotificationUrl: receiver.url, authToken: "c2VjcmV0", encodeData: false, encryptData: false }
    })
    // The first enable turns the comment and huddle triggers on, crdt and recorder off (the facts).
    expect(enabled).toEqual({
      status: "success",
      message: "Webhook configuration updated successfully.",
      data: {
        useWebhookService: true,
        webhookServiceConfig: {
          authToken: "c2VjcmV0",
          rawNotificationUrl: receiver.url,
          processedNotificationUrl: "",
          triggers: { comment: true, huddle: true, crdt: false, recorder: false }
        }
      }
    })
    expect((await ok(creds, "/v2/workspace/webhookconfig/get", {})).data).toEqual(enabled.data)

    await thread(creds, `${tag}-1`)
    const [added] = await delivered(`${tag}-1`, 1)
    expect(added!.headers.authorization).toBe("Basic c2VjcmV0")
    expect(added!.headers["webhook-signature"]).toBeUndefined()
    expect(added!.body).toMatchObject({
      webhookId: expect.stringMatching(/^msg_/),
      actionType: "newlyAdded",
      notificationSource: "comment",
      platform: "sdk",
      visibility: { type: "public" },
      actionUser: { userId: "ann", name: "Ann" },
      metadata: { organizationId: "org", documentId: "doc" },
      targetComment: { commentId: 1, commentText: "hello" },
      commentAnnotation: { annotationId: `${tag}-1` }
    })

    await ok(creds, "/v2/commentannotations/comments/reactions/add", { organizationId: "org", documentId: "doc", annotationId: `${tag}-1`, commentId: 1, reaction: { reactionId: "HEART" }, from: { userId: "bo" } })
    await ok(creds, "/v2/commentannotations/comments/add", { organizationId: "org", documentId: "doc", annotationId: `${tag}-1`, commentData: [{ commentText: "reply", from: { userId: "bo" } }] })
    const all = await delivered(`${tag}-1`, 3)
    expect(all.map((r) => r.body.actionType).sort()).toEqual(["added", "newlyAdded", "reactionAdded"])

    // activities/add emits its own `comment.add` (about an activity): not a comment event, not sent.
    const before = receiver.received.length
    await ok(creds, "/v2/activities/add", { organizationId: "org", documentId: "doc", activities: [{ featureType: "comment", actionType: "add", actionUser: { userId: "ann" } }] })
    await delivered("none", 0)
    expect(receiver.received.slice(before).map((r) => JSON.parse(r.body)).filter((b) => b.featureType !== undefined || b.data?.featureType !== undefined)).toEqual([])

    // Not an advanced endpoint: not listed, not found by its id.
    await ok(creds, "/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
    expect((await ok(creds, "/v2/workspace/advancedwebhook/endpoints/get", {})).data.endpoints).toEqual([])
    expect((await post(creds, "/v2/workspace/advancedwebhook/endpoints/delete", { endpointId: "basic" })).status).toBe(404)
    await thread(creds, `${tag}-2`)
    expect(await delivered(`${tag}-2`, 1)).toHaveLength(1)
  })

  it("a trigger turned off sends none of its events; turned off, nothing more is sent; on again, it is", async () => {
    const creds = await ctx().workspace()
    const tag = Math.random().toString(36).slice(2, 10)
    await ok(creds, "/v2/workspace/webhookconfig/update", {
      useWebhookService: true,
      webhookServiceConfig: { rawNotificationUrl: receiver.url, triggers: { "comment.add": false } }
    })
    await thread(creds, `${tag}-3`)
    await ok(creds, "/v2/commentannotations/comments/add", { organizationId: "org", documentId: "doc", annotationId: `${tag}-3`, commentData: [{ commentText: "reply", from: { userId: "bo" } }] })
    await delivered(`${tag}-3`, 1)
    const sent = await delivered(`${tag}-3`, 0)
    expect(sent.map((r) => r.body.actionType)).toEqual(["newlyAdded"])
    // No token set: no Authorization header.
    expect(sent[0]!.headers.authorization).toBeUndefined()

    expect((await ok(creds, "/v2/workspace/webhookconfig/update", { useWebhookService: false })).data.useWebhookService).toBe(false)
    // Triggers set before the first enable stay over the first enable's.
    const other = await ctx().workspace()
    await ok(other, "/v2/workspace/webhookconfig/update", { webhookServiceConfig: { rawNotificationUrl: receiver.url, triggers: { "comment.update": false } } })
    const first = await ok(other, "/v2/workspace/webhookconfig/update", { useWebhookService: true })
    expect(first.data.webhookServiceConfig.triggers).toEqual({ comment: true, huddle: true, crdt: false, recorder: false, "comment.update": false })
    await thread(creds, `${tag}-4`)
    expect(await delivered(`${tag}-4`, 0)).toEqual([])

    await ok(creds, "/v2/workspace/webhookconfig/update", { useWebhookService: true })
    await thread(creds, `${tag}-5`)
    expect(await delivered(`${tag}-5`, 1)).toHaveLength(1)

    // Off with its URL cleared in the same call: nothing is sent, and on again needs a URL.
    await ok(creds, "/v2/workspace/webhookconfig/update", { useWebhookService: false, webhookServiceConfig: { rawNotificationUrl: "" } })
    await thread(creds, `${tag}-6`)
    expect(await delivered(`${tag}-6`, 0)).toEqual([])
    expect((await post(creds, "/v2/workspace/webhookconfig/update", { useWebhookService: true })).status).toBe(400)
  })
})
