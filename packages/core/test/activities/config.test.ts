/**
 * workspace/activityconfig (issue 28): the settings are read back as written, and act: an activity
 * log turned off refuses activities/add and records no comment's activity; an immutable one refuses
 * activities/update and activities/delete (erasure still removes); a comment trigger turned off
 * records no activity of that action.
 */
import { JobRunner } from "@atrium/core"
import type { TestCredentials } from "@atrium/core/testing"
import { expect, it } from "vitest"
import { keyCalls } from "../../../../test-support/calls.js"
import { forEachBackend } from "../../../../test-support/backends.js"

forEachBackend("workspace activityconfig", (ctx) => {
  const { ok, post } = keyCalls(() => ctx().client)
  const config = async (creds: TestCredentials) => (await ok(creds, "/v2/workspace/activityconfig/get", {})).data
  const update = (creds: TestCredentials, activityServiceConfig: unknown) =>
    post(creds, "/v2/workspace/activityconfig/update", { activityServiceConfig })
  const activity = (id: string, userId = "alice") => ({ id, featureType: "recorder", actionType: "edited", actionUser: { userId } })
  const log = async (creds: TestCredentials) =>
    (await ok(creds, "/v2/activities/get", { organizationId: "org", order: "asc" })).data.map((a: { id: string; actionType: string }) => a.id)

  it("reads the log on and mutable until set; refuses an update without a field; the first enable makes it immutable and stamps its time", async () => {
    const creds = await ctx().workspace()
    expect(await ok(creds, "/v2/workspace/activityconfig/get", {})).toEqual({
      status: "success",
      message: "Activity configuration retrieved successfully.",
      data: { activityServiceConfig: { isEnabled: true, immutable: false, triggers: { comment: {} } } }
    })
    for (const body of [{}, { activityServiceConfig: {} }, { activityServiceConfig: { isEnabled: "yes" } }]) {
      const refused = await post(creds, "/v2/workspace/activityconfig/update", body)
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect(refused.body.error.status).toBe("INVALID_ARGUMENT")
    }
    const empty = await update(creds, {})
    expect(empty.body.error.message).toContain("at least one of isEnabled, enabledTime, immutable or triggers must be provided")
    // Nothing was stored by the refusals: the first enable is still the first.
    const before = Date.now()
    const enabled = await update(creds, { isEnabled: true })
    expect(enabled.status, enabled.text).toBe(200)
    expect(enabled.body.result).toEqual({
      status: "success",
      message: "Activity configuration updated successfully.",
      data: { activityServiceConfig: { isEnabled: true, immutable: true, enabledTime: expect.any(Number), triggers: { comment: {} } } }
    })
    expect(enabled.body.result.data.activityServiceConfig.enabledTime).toBeGreaterThanOrEqual(before - 1000)
    expect(await config(creds)).toEqual(enabled.body.result.data)
    // A later enable keeps the stamp; a first enable that says immutable: false is not immutable.
    const again = await update(creds, { isEnabled: true })
    expect(again.body.result.data.activityServiceConfig.enabledTime).toBe(enabled.body.result.data.activityServiceConfig.enabledTime)
    const other = await ctx().workspace()
    expect((await update(other, { isEnabled: true, immutable: false })).body.result.data.activityServiceConfig).toMatchObject({ isEnabled: true, immutable: false })
    // Another key's settings are its own.
    expect((await config(other)).activityServiceConfig.immutable).toBe(false)
  })

  it("immutable: activities/update and activities/delete are refused and change nothing; erasure still removes; mutable again, they work", async () => {
    const { atrium } = ctx()
    const creds = await ctx().workspace()
    await ok(creds, "/v2/activities/add", { organizationId: "org", documentId: "doc", activities: [activity("a1"), activity("a2", "bob")] })
    expect((await update(creds, { immutable: true })).status).toBe(200)

    const refusedUpdate = await post(creds, "/v2/activities/update", { organizationId: "org", activities: [{ id: "a1", actionIcon: "x" }] })
    expect(refusedUpdate.status).toBe(400)
    expect(refusedUpdate.body.error).toMatchObject({ status: "FAILED_PRECONDITION", message: expect.stringContaining("Activities are immutable for this workspace") })
    const refusedDelete = await post(creds, "/v2/activities/delete", { organizationId: "org", activityIds: ["a1"] })
    expect(refusedDelete.status).toBe(400)
    expect(refusedDelete.body.error.status).toBe("FAILED_PRECONDITION")
    const kept = (await ok(creds, "/v2/activities/get", { organizationId: "org", activityIds: ["a1"] })).data
    expect(kept).toHaveLength(1)
    expect(kept[0]).not.toHaveProperty("actionIcon")

    // A data subject's erasure is not an edit of the log.
    expect((await post(creds, "/v2/users/data/delete", { userIds: ["bob"] })).status).toBe(202)
    while ((await atrium.runtime.runPromise(JobRunner.runDue("test"))) > 0) {
      // until the job is done
    }
    expect(await log(creds)).toEqual(["a1"])

    expect((await update(creds, { immutable: false })).body.result.data.activityServiceConfig.immutable).toBe(false)
    expect((await ok(creds, "/v2/activities/update", { organizationId: "org", activities: [{ id: "a1", actionIcon: "x" }] })).data.a1.success).toBe(true)
    expect((await ok(creds, "/v2/activities/delete", { organizationId: "org", activityIds: ["a1"] })).data.a1.success).toBe(true)
    expect(await log(creds)).toEqual([])
  })

  it("off: activities/add is refused and writes nothing, comments record no activity, the log is still read; a comment trigger off records none of its action", async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/activities/add", { organizationId: "org", documentId: "doc", activities: [activity("before")] })
    expect((await update(creds, { isEnabled: false })).body.result.data.activityServiceConfig.isEnabled).toBe(false)

    const refused = await post(creds, "/v2/activities/add", { organizationId: "org", documentId: "doc", activities: [activity("during")] })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toEqual({
      status: "FAILED_PRECONDITION",
      message: "Activities are disabled for this workspace. Enable them via POST /v2/workspace/activityconfig/update with { \"activityServiceConfig\": { \"isEnabled\": true } }."
    })
    const thread = (annotationId: string) => ({
      annotationId,
      commentData: [
        { commentId: 1, commentText: "first", triggerActivities: true, from: { userId: "alice" } },
        { commentId: 2, commentText: "reply", triggerActivities: true, from: { userId: "bob" } }
      ]
    })
    await ok(creds, "/v2/commentannotations/add", { organizationId: "org", documentId: "doc", commentAnnotations: [thread("t-off")] })
    expect(await log(creds)).toEqual(["before"])

    // On again, with replies' activities off: a thread's first comment is recorded, its reply is not.
    await update(creds, { isEnabled: true, triggers: { comment: { "comment.add": false } } })
    expect((await config(creds)).activityServiceConfig.triggers).toEqual({ comment: { "comment.add": false } })
    await ok(creds, "/v2/commentannotations/add", { organizationId: "org", documentId: "doc", commentAnnotations: [thread("t-on")] })
    const recorded = (await ok(creds, "/v2/activities/get", { organizationId: "org", featureTypes: ["comment"] })).data
    expect(recorded.map((a: { actionType: string; targetEntityId: string }) => [a.actionType, a.targetEntityId])).toEqual([["comment_annotation.add", "t-on"]])
  })
})
