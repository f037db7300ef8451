import type { TestClient, TestCredentials } from "@atrium/core/testing"
import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { expectCap } from "../../../../test-support/caps.js"
import { MAX_ACTIVITIES_PER_CALL } from "../../src/activities/ActivitySchemas.js"

const ADD = "/v2/activities/add"
const GET = "/v2/activities/get"
const UPDATE = "/v2/activities/update"

interface Seed {
  readonly id: string
  readonly documentId: string
  readonly featureType: string
  readonly actionType: string
  readonly actionUser: { readonly userId: string; readonly name: string }
  readonly targetEntityId?: string
  readonly timestamp: number
}

/**
 * 24 activities over two documents, four feature types, three users, two
 * targets (some without), with timestamps in groups of four equal values and
 * ids running against insertion order, so ties are broken by id.
 */
const seeds: ReadonlyArray<Seed> = Array.from({ length: 24 }, (_, i) => {
  const featureType = ["comment", "reaction", "custom", "recorder"][i % 4]!
  const targetEntityId = featureType !== "custom" && i % 5 === 0 ? undefined : `t${i % 2}`
  return {
    id: `act-${String(23 - i).padStart(2, "0")}`,
    documentId: i % 2 === 0 ? "d1" : "d2",
    featureType,
    actionType: `${featureType}.${i % 3 === 0 ? "add" : "update"}`,
    actionUser: { userId: `u${i % 3}`, name: `User ${i % 3}` },
    ...(targetEntityId !== undefined && { targetEntityId }),
    timestamp: 1000 + Math.floor(i / 4) * 10
  }
})

const ascending = (a: { timestamp: number; id: string }, b: { timestamp: number; id: string }) =>
  a.timestamp - b.timestamp || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** Ids of the seeds matching `keep`, in the order activities/get must return them. */
const expectedIds = (keep: (seed: Seed) => boolean, order: "asc" | "desc" = "desc") => {
  const sorted = seeds.filter(keep).sort(ascending).map((seed) => seed.id)
  return order === "asc" ? sorted : sorted.reverse()
}

const addSeeds = async (client: TestClient, creds: TestCredentials, organizationId = "org") => {
  for (const documentId of ["d1", "d2"]) {
    const activities = seeds.filter((s) => s.documentId === documentId).map(({ documentId: _, ...activity }) => activity)
    const answer = await client.post(ADD, { organizationId, documentId, activities }, creds.headers)
    expect(answer.status).toBe(200)
  }
}

const ids = (answer: { body: any }) => answer.body.result.data.map((a: { id: string }) => a.id)

/** Every page of a query, following pageToken; checks each page's size. */
const allPages = async (client: TestClient, creds: TestCredentials, query: Record<string, unknown>, pageSize: number) => {
  const seen: Array<string> = []
  let pageToken: string | undefined
  let pages = 0
  do {
    const page = await client.post(GET, { ...query, pageSize, ...(pageToken && { pageToken }) }, creds.headers)
    expect(page.status).toBe(200)
    expect(page.body.result.data.length).toBeLessThanOrEqual(pageSize)
    seen.push(...ids(page))
    pageToken = page.body.result.pageToken
    if (pageToken !== undefined) expect(page.body.result.data).toHaveLength(pageSize)
    pages++
    // A cursor that does not advance would loop forever: fail instead.
    expect(pages).toBeLessThanOrEqual(100)
  } while (pageToken)
  return { seen, pages }
}

forEachBackend("activities", (ctx) => {
  describe("activities/add", () => {
    it("adds activities and returns them as Activity records with metadata", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const full = {
        id: "full",
        featureType: "comment",
        actionType: "comment.add",
        actionUser: { userId: "u1", name: "Ada", email: "ada@example.com" },
        targetEntityId: "annotation-1",
        targetSubEntityId: "comment-1",
        changes: { text: { from: "old", to: "new" } },
        entityData: { text: "new", nested: [1, 2] },
        entityTargetData: "anything",
        displayMessageTemplate: "{{user}} commented",
        displayMessageTemplateData: { user: { userId: "u1", name: "Ada" } },
        actionIcon: "https://example.com/icon.svg",
        timestamp: 1_700_000_000_000
      }
      const added = await client.post(ADD, {
        organizationId: "org",
        documentId: "doc",
        activities: [full, { id: "bare", featureType: "reaction", actionType: "reaction.add", actionUser: { userId: "u2" }, timestamp: 1_700_000_000_001 }]
      }, creds.headers)
      expect(added.status).toBe(200)
      expect(added.body).toEqual({
        result: {
          status: "success",
          message: "Activity(s) added successfully.",
          data: { success: true, message: "Activity(s) added successfully." }
        }
      })
      const got = await client.post(GET, { organizationId: "org" }, creds.headers)
      expect(got.status).toBe(200)
      expect(got.body).toEqual({
        result: {
          status: "success",
          message: "Activity(s) retrieved successfully.",
          data: [
            {
              id: "bare",
              featureType: "reaction",
              actionType: "reaction.add",
              actionUser: { userId: "u2" },
              metadata: { apiKey: creds.apiKey, documentId: "doc", organizationId: "org" },
              timestamp: 1_700_000_000_001
            },
            { ...full, metadata: { apiKey: creds.apiKey, documentId: "doc", organizationId: "org" } }
          ]
        }
      })
    })

    it("generates missing ids and timestamps", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const before = Date.now()
      const activity = { featureType: "comment", actionType: "comment.add", actionUser: { userId: "u1" } }
      await client.post(ADD, { organizationId: "org", documentId: "doc", activities: [activity, activity] }, creds.headers)
      const after = Date.now()
      const got = await client.post(GET, { organizationId: "org" }, creds.headers)
      const [a, b] = got.body.result.data
      expect(typeof a.id).toBe("string")
      expect(a.id.length).toBeGreaterThan(0)
      expect(a.id).not.toBe(b.id)
      for (const record of [a, b]) {
        expect(record.timestamp).toBeGreaterThanOrEqual(before)
        expect(record.timestamp).toBeLessThanOrEqual(after)
      }
    })

    it("overwrites an existing id", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const base = { id: "same", featureType: "comment", actionUser: { userId: "u1" }, timestamp: 5 }
      await client.post(ADD, { organizationId: "org", documentId: "d1", activities: [{ ...base, actionType: "comment.add", actionIcon: "old" }] }, creds.headers)
      await client.post(ADD, { organizationId: "org", documentId: "d2", activities: [{ ...base, actionType: "comment.update" }] }, creds.headers)
      const got = await client.post(GET, { organizationId: "org" }, creds.headers)
      expect(got.body.result.data).toEqual([{
        id: "same",
        featureType: "comment",
        actionType: "comment.update",
        actionUser: { userId: "u1" },
        metadata: { apiKey: creds.apiKey, documentId: "d2", organizationId: "org" },
        timestamp: 5
      }])
      const byOldDocument = await client.post(GET, { organizationId: "org", documentId: "d1" }, creds.headers)
      expect(byOldDocument.body.result.data).toEqual([])
    })

    it("requires targetEntityId for custom activities, and then writes none of the call's activities", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const valid = { id: "ok", featureType: "comment", actionType: "comment.add", actionUser: { userId: "u1" } }
      const custom = { id: "c", featureType: "custom", actionType: "custom.done", actionUser: { userId: "u1" } }
      const refused = await client.post(ADD, { organizationId: "org", documentId: "doc", activities: [valid, custom] }, creds.headers)
      expect(refused.status).toBe(400)
      expect(refused.body.error.status).toBe("INVALID_ARGUMENT")
      expect(refused.body.error.message).toBe("Invalid data.activities[1].targetEntityId: is required when featureType is custom")
      const none = await client.post(GET, { organizationId: "org" }, creds.headers)
      expect(none.body.result.data).toEqual([])
      const accepted = await client.post(ADD, {
        organizationId: "org",
        documentId: "doc",
        activities: [valid, { ...custom, targetEntityId: "entity" }]
      }, creds.headers)
      expect(accepted.status).toBe(200)
      expect(ids(await client.post(GET, { organizationId: "org", order: "asc" }, creds.headers)).sort()).toEqual(["c", "ok"])
    })

    it("validates the request", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const activity = { featureType: "comment", actionType: "comment.add", actionUser: { userId: "u1" } }
      const cases: Array<[unknown, string]> = [
        [{ documentId: "d", activities: [activity] }, "data.organizationId"],
        [{ organizationId: "o", activities: [activity] }, "data.documentId"],
        [{ organizationId: "o", documentId: "d", activities: [] }, "data.activities"],
        [{ organizationId: "o", documentId: "d", activities: [{ ...activity, featureType: "video" }] }, "data.activities[0].featureType"],
        [{ organizationId: "o", documentId: "d", activities: [{ ...activity, actionType: undefined }] }, "data.activities[0].actionType"],
        [{ organizationId: "o", documentId: "d", activities: [{ ...activity, actionUser: { name: "x" } }] }, "data.activities[0].actionUser.userId"],
        [{ organizationId: "o", documentId: "d", activities: [{ ...activity, actionUser: { userId: "u", email: "nope" } }] }, "data.activities[0].actionUser.email"],
        [{ organizationId: "o", documentId: "d", activities: [{ ...activity, timestamp: -1 }] }, "data.activities[0].timestamp"],
        [{ organizationId: "o", documentId: "d", activities: [{ ...activity, id: "x".repeat(257) }] }, "data.activities[0].id"],
        [{ organizationId: "o", documentId: "d", activities: [{ ...activity, color: "red" }] }, "data.activities[0].color"]
      ]
      for (const [data, field] of cases) {
        const answer = await client.post(ADD, data, creds.headers)
        expect(answer.status, JSON.stringify(data)).toBe(400)
        expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
        expect(answer.body.error.message).toContain(field)
      }
      const atBound = await client.post(ADD, { organizationId: "o", documentId: "d", activities: [{ ...activity, id: "x".repeat(256) }] }, creds.headers)
      expect(atBound.status).toBe(200)
    })
  })

  describe("activities/get filters and order", () => {
    const filters: Array<[string, Record<string, unknown>, (seed: Seed) => boolean]> = [
      ["no filter", {}, () => true],
      ["documentId", { documentId: "d2" }, (s) => s.documentId === "d2"],
      ["targetEntityId", { targetEntityId: "t1" }, (s) => s.targetEntityId === "t1"],
      ["featureTypes", { featureTypes: ["custom", "comment"] }, (s) => ["custom", "comment"].includes(s.featureType)],
      ["actionTypes", { actionTypes: ["reaction.add", "comment.update"] }, (s) => ["reaction.add", "comment.update"].includes(s.actionType)],
      ["userId", { userId: "u2" }, (s) => s.actionUser.userId === "u2"],
      ["activityIds", { activityIds: ["act-01", "act-07", "act-20", "missing"] }, (s) => ["act-01", "act-07", "act-20"].includes(s.id)],
      [
        "documentId + featureTypes + userId",
        { documentId: "d1", featureTypes: ["comment", "custom"], userId: "u0" },
        (s) => s.documentId === "d1" && ["comment", "custom"].includes(s.featureType) && s.actionUser.userId === "u0"
      ],
      [
        "targetEntityId + actionTypes",
        { targetEntityId: "t0", actionTypes: ["comment.add", "custom.update"] },
        (s) => s.targetEntityId === "t0" && ["comment.add", "custom.update"].includes(s.actionType)
      ],
      [
        "activityIds + documentId",
        { activityIds: ["act-00", "act-01", "act-02", "act-03"], documentId: "d1" },
        (s) => ["act-00", "act-01", "act-02", "act-03"].includes(s.id) && s.documentId === "d1"
      ],
      [
        "every filter",
        {
          documentId: "d1",
          targetEntityId: "t0",
          featureTypes: ["comment"],
          actionTypes: ["comment.add"],
          userId: "u0",
          activityIds: ["act-23", "act-11", "act-17"]
        },
        (s) =>
          s.documentId === "d1" && s.targetEntityId === "t0" && s.featureType === "comment" && s.actionType === "comment.add" &&
          s.actionUser.userId === "u0" && ["act-23", "act-11", "act-17"].includes(s.id)
      ]
    ]

    for (const [name, query, keep] of filters) {
      it(`filters by ${name}, in both orders`, async () => {
        const { client, workspace } = ctx()
        const creds = await workspace()
        await addSeeds(client, creds)
        const expected = expectedIds(keep)
        expect(expected.length).toBeGreaterThan(0)
        const desc = await client.post(GET, { organizationId: "org", ...query }, creds.headers)
        expect(desc.status).toBe(200)
        expect(ids(desc)).toEqual(expected)
        expect(desc.body.result).not.toHaveProperty("pageToken")
        const explicitDesc = await client.post(GET, { organizationId: "org", ...query, order: "desc" }, creds.headers)
        expect(ids(explicitDesc)).toEqual(expected)
        const asc = await client.post(GET, { organizationId: "org", ...query, order: "asc" }, creds.headers)
        expect(ids(asc)).toEqual(expectedIds(keep, "asc"))
      })
    }

    it("returns an empty page when nothing matches", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await addSeeds(client, creds)
      const got = await client.post(GET, { organizationId: "org", documentId: "d1", userId: "nobody" }, creds.headers)
      expect(got.body.result).toEqual({ status: "success", message: "Activity(s) retrieved successfully.", data: [] })
    })

    it("validates the filters", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const cases: Array<[unknown, string]> = [
        [{}, "data.organizationId"],
        [{ organizationId: "o", featureTypes: ["video"] }, "data.featureTypes[0]"],
        [{ organizationId: "o", featureTypes: [] }, "data.featureTypes"],
        [{ organizationId: "o", actionTypes: [] }, "data.actionTypes"],
        [{ organizationId: "o", activityIds: [] }, "data.activityIds"],
        [{ organizationId: "o", activityIds: Array.from({ length: 1001 }, (_, i) => `a${i}`) }, "data.activityIds"],
        [{ organizationId: "o", order: "newest" }, "data.order"],
        [{ organizationId: "o", userId: "" }, "data.userId"]
      ]
      for (const [data, field] of cases) {
        const answer = await client.post(GET, data, creds.headers)
        expect(answer.status, JSON.stringify(data)).toBe(400)
        expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
        expect(answer.body.error.message).toContain(field)
      }
      const atBound = await client.post(GET, { organizationId: "o", activityIds: Array.from({ length: 1000 }, (_, i) => `a${i}`) }, creds.headers)
      expect(atBound.status).toBe(200)
    })
  })

  describe("activities/get pagination", () => {
    for (const order of ["desc", "asc"] as const) {
      it(`pages through equal timestamps in ${order} order without duplicates or gaps`, async () => {
        const { client, workspace } = ctx()
        const creds = await workspace()
        await addSeeds(client, creds)
        for (const pageSize of [1, 3, 5, 24]) {
          const { pages, seen } = await allPages(client, creds, { organizationId: "org", order }, pageSize)
          expect(seen).toEqual(expectedIds(() => true, order))
          expect(pages).toBe(Math.ceil(24 / pageSize))
        }
        const filtered = await allPages(client, creds, { organizationId: "org", order, documentId: "d2", featureTypes: ["reaction", "recorder"] }, 2)
        expect(filtered.seen).toEqual(expectedIds((s) => s.documentId === "d2" && ["reaction", "recorder"].includes(s.featureType), order))
      })
    }

    it("accepts pageSize 1 and 1000, refuses 0 and 1001", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await addSeeds(client, creds)
      const one = await client.post(GET, { organizationId: "org", pageSize: 1 }, creds.headers)
      expect(one.status).toBe(200)
      expect(ids(one)).toEqual([expectedIds(() => true)[0]])
      expect(typeof one.body.result.pageToken).toBe("string")
      const max = await client.post(GET, { organizationId: "org", pageSize: 1000 }, creds.headers)
      expect(max.status).toBe(200)
      expect(max.body.result.data).toHaveLength(24)
      for (const pageSize of [0, 1001, 2.5]) {
        const answer = await client.post(GET, { organizationId: "org", pageSize }, creds.headers)
        expect(answer.status).toBe(400)
        expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
        expect(answer.body.error.message).toContain("data.pageSize")
      }
    })

    it("refuses a page token used with other filters, another order, another key, or tampered", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const other = await workspace()
      await addSeeds(client, creds)
      await addSeeds(client, other)
      const query = { organizationId: "org", documentId: "d1", featureTypes: ["comment", "reaction"] }
      const first = await client.post(GET, { ...query, pageSize: 2 }, creds.headers)
      const pageToken: string = first.body.result.pageToken
      expect(typeof pageToken).toBe("string")

      // The same filters (in another order, with another page size) keep working.
      const same = await client.post(GET, { ...query, featureTypes: ["reaction", "comment"], pageSize: 3, pageToken }, creds.headers)
      expect(same.status).toBe(200)
      expect(ids(same)).toEqual(expectedIds((s) => s.documentId === "d1" && ["comment", "reaction"].includes(s.featureType)).slice(2, 5))

      const misuses: Array<[Record<string, unknown>, Readonly<Record<string, string>>]> = [
        [{ ...query, documentId: "d2", pageToken }, creds.headers],
        [{ ...query, featureTypes: ["comment"], pageToken }, creds.headers],
        [{ ...query, userId: "u1", pageToken }, creds.headers],
        [{ ...query, order: "asc", pageToken }, creds.headers],
        [{ ...query, organizationId: "org2", pageToken }, creds.headers],
        [{ ...query, pageToken }, other.headers],
        [{ ...query, pageToken: pageToken.slice(0, -2) + (pageToken.endsWith("AA") ? "BA" : "AA") }, creds.headers],
        [{ ...query, pageToken: "not-a-token" }, creds.headers]
      ]
      for (const [data, headers] of misuses) {
        const answer = await client.post(GET, data, headers)
        expect(answer.status, JSON.stringify(data)).toBe(400)
        expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
        expect(answer.body.error.message).toContain("pageToken")
      }
    })
  })

  describe("activities/update", () => {
    it("updates known activities and fails unknown ones or those of another organization", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await addSeeds(client, creds)
      await addSeeds(client, creds, "org2")
      const updated = await client.post(UPDATE, {
        organizationId: "org",
        activities: [
          { id: "act-05", displayMessageTemplate: "{{user}} updated the comment", displayMessageTemplateData: { user: { userId: "u1" } } },
          { id: "missing", actionIcon: "x" },
          { id: "act-06", actionIcon: "https://example.com/edit.svg", changes: { status: { from: "open", to: "done" } }, entityData: null, entityTargetData: [1] },
          { id: "act-07" }
        ]
      }, creds.headers)
      expect(updated.status).toBe(200)
      expect(updated.body).toEqual({
        result: {
          status: "success",
          message: "Activity(s) updated successfully.",
          data: {
            "act-05": { success: true, message: "Activity updated." },
            missing: { success: false, message: "Failed to update activity." },
            "act-06": { success: true, message: "Activity updated." },
            "act-07": { success: true, message: "Activity updated." }
          }
        }
      })
      const seed = (id: string) => {
        const { documentId, ...rest } = seeds.find((s) => s.id === id)!
        return { ...rest, metadata: { apiKey: creds.apiKey, documentId, organizationId: "org" } }
      }
      const got = await client.post(GET, { organizationId: "org", activityIds: ["act-05", "act-06", "act-07"], order: "asc" }, creds.headers)
      const byId = Object.fromEntries(got.body.result.data.map((a: { id: string }) => [a.id, a]))
      expect(byId["act-05"]).toEqual({
        ...seed("act-05"),
        displayMessageTemplate: "{{user}} updated the comment",
        displayMessageTemplateData: { user: { userId: "u1" } }
      })
      expect(byId["act-06"]).toEqual({
        ...seed("act-06"),
        actionIcon: "https://example.com/edit.svg",
        changes: { status: { from: "open", to: "done" } },
        entityData: null,
        entityTargetData: [1]
      })
      expect(byId["act-07"]).toEqual(seed("act-07"))
      // The same ids in org2 are untouched.
      const org2 = await client.post(GET, { organizationId: "org2", activityIds: ["act-05"] }, creds.headers)
      expect(org2.body.result.data[0]).not.toHaveProperty("displayMessageTemplate")
    })

    it("fails an id that exists only in another organization or under another key", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const other = await workspace()
      await addSeeds(client, creds, "org2")
      await addSeeds(client, other, "org")
      const answer = await client.post(UPDATE, { organizationId: "org", activities: [{ id: "act-01", actionIcon: "x" }] }, creds.headers)
      expect(answer.body.result.data).toEqual({ "act-01": { success: false, message: "Failed to update activity." } })
      const untouched = await client.post(GET, { organizationId: "org", activityIds: ["act-01"] }, other.headers)
      expect(untouched.body.result.data[0]).not.toHaveProperty("actionIcon")
      const nothingCreated = await client.post(GET, { organizationId: "org" }, creds.headers)
      expect(nothingCreated.body.result.data).toEqual([])
    })

    it("validates the request and refuses fields that cannot be updated", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const cases: Array<[unknown, string]> = [
        [{ activities: [{ id: "a" }] }, "data.organizationId"],
        [{ organizationId: "o" }, "data.activities"],
        [{ organizationId: "o", activities: [] }, "data.activities"],
        [{ organizationId: "o", activities: [{ actionIcon: "x" }] }, "data.activities[0].id"],
        [{ organizationId: "o", activities: [{ id: "a", featureType: "comment" }] }, "data.activities[0].featureType"],
        [{ organizationId: "o", activities: [{ id: "a", timestamp: 1 }] }, "data.activities[0].timestamp"],
        [{ organizationId: "o", activities: [{ id: "a", displayMessageTemplateData: "text" }] }, "data.activities[0].displayMessageTemplateData"]
      ]
      for (const [data, field] of cases) {
        const answer = await client.post(UPDATE, data, creds.headers)
        expect(answer.status, JSON.stringify(data)).toBe(400)
        expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
        expect(answer.body.error.message).toContain(field)
      }
    })
  })

  describe("activities/delete", () => {
    const DELETE = "/v2/activities/delete"
    const all = async (client: TestClient, creds: TestCredentials, organizationId = "org") =>
      (await allPages(client, creds, { organizationId }, 100)).seen.sort()

    it("deletes by ids, document and target, combined, answering per activity id; a named one not deleted fails its item", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await addSeeds(client, creds)
      await addSeeds(client, creds, "org2")
      const byIds = await client.post(DELETE, { organizationId: "org", activityIds: ["act-05", "missing"] }, creds.headers)
      expect(byIds.status).toBe(200)
      expect(byIds.body).toEqual({
        result: {
          status: "success",
          message: "Activity(s) deleted successfully.",
          data: { "act-05": { success: true, message: "Activity deleted." }, missing: { success: false, message: "Failed to delete activity." } }
        }
      })
      // Combined: only d1's activities among those named; d2's one fails its item.
      const d1 = seeds.find((s) => s.documentId === "d1" && s.id !== "act-05")!.id
      const d2 = seeds.find((s) => s.documentId === "d2" && s.id !== "act-05")!.id
      const combined = await client.post(DELETE, { organizationId: "org", documentId: "d1", activityIds: [d1, d2] }, creds.headers)
      expect(combined.body.result.data).toEqual({ [d1]: { success: true, message: "Activity deleted." }, [d2]: { success: false, message: "Failed to delete activity." } })
      // By target on a document: every one of them, keyed by id.
      const gone = expectedIds((s) => s.documentId === "d2" && s.targetEntityId === "t1")
      const byTarget = await client.post(DELETE, { organizationId: "org", documentId: "d2", targetEntityId: "t1" }, creds.headers)
      expect(Object.keys(byTarget.body.result.data).sort()).toEqual([...gone].sort())
      const removed = new Set(["act-05", d1, ...gone])
      expect(await all(client, creds)).toEqual(seeds.map((s) => s.id).filter((id) => !removed.has(id)).sort())
      // The other organization's activities of the same ids are all there; a repeat deletes nothing.
      expect(await all(client, creds, "org2")).toEqual(seeds.map((s) => s.id).sort())
      const again = await client.post(DELETE, { organizationId: "org", activityIds: ["act-05"] }, creds.headers)
      expect(again.body.result.data).toEqual({ "act-05": { success: false, message: "Failed to delete activity." } })
    })

    it("refuses a call without a filter, or malformed, deleting nothing; another key's activities are not touched", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await addSeeds(client, a)
      const none = await client.post(DELETE, { organizationId: "org" }, a.headers)
      expect(none.status).toBe(400)
      expect(none.body.error).toEqual({ status: "INVALID_ARGUMENT", message: "At least one of documentId, activityIds or targetEntityId must be provided." })
      for (const data of [{ documentId: "d1" }, { organizationId: "org", activityIds: [] }, { organizationId: "org", activityIds: "act-01" }]) {
        const bad = await client.post(DELETE, data, a.headers)
        expect(bad.status, JSON.stringify(data)).toBe(400)
      }
      const foreign = await client.post(DELETE, { organizationId: "org", documentId: "d1" }, b.headers)
      expect(foreign.body.result.data).toEqual({})
      expect(await all(client, a)).toHaveLength(seeds.length)
    })
  })

  describe("isolation and disabled organizations", () => {
    it("never shows another API key's or another organization's activities", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await addSeeds(client, a)
      const otherKey = await client.post(GET, { organizationId: "org" }, b.headers)
      expect(otherKey.body.result.data).toEqual([])
      const byIds = await client.post(GET, { organizationId: "org", activityIds: ["act-00"] }, b.headers)
      expect(byIds.body.result.data).toEqual([])
      const otherOrg = await client.post(GET, { organizationId: "org2" }, a.headers)
      expect(otherOrg.body.result.data).toEqual([])
    })

    it("refuses every operation with PERMISSION_DENIED while the organization is disabled", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await client.post("/v2/organizations/add", { organizations: [{ organizationId: "org" }] }, creds.headers)
      await addSeeds(client, creds)
      const disable = (disabled: boolean) =>
        client.post("/v1/organizations/access/disablestate/update", { organizationIds: ["org"], disabled }, creds.headers)
      await disable(true)
      const activity = { id: "new", featureType: "comment", actionType: "comment.add", actionUser: { userId: "u1" } }
      const calls: Array<[string, unknown]> = [
        [ADD, { organizationId: "org", documentId: "d1", activities: [activity] }],
        [GET, { organizationId: "org" }],
        [UPDATE, { organizationId: "org", activities: [{ id: "act-00", actionIcon: "x" }] }]
      ]
      for (const [path, data] of calls) {
        const answer = await client.post(path, data, creds.headers)
        expect(answer.status, path).toBe(403)
        expect(answer.body.error.status).toBe("PERMISSION_DENIED")
      }
      await disable(false)
      const after = await client.post(GET, { organizationId: "org", activityIds: ["new", "act-00"] }, creds.headers)
      expect(after.body.result.data).toHaveLength(1)
      expect(after.body.result.data[0]).not.toHaveProperty("actionIcon")
    })
  })

  describe("caps (issue 21: one call's work stays short)", () => {
    it(`activities/add and activities/update take ${MAX_ACTIVITIES_PER_CALL} activities; one more is refused, nothing written`, async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const post = (path: string, data: unknown) => client.post(path, data, creds.headers)
      const activity = (id: string) => ({ id, featureType: "comment", actionType: "comment.add", actionUser: { userId: "u" }, targetEntityId: "t" })
      const activities = (n: number, tag: string) => Array.from({ length: n }, (_, i) => activity(`${tag}-${i}`))
      await expectCap({ post, path: ADD, field: "activities", max: MAX_ACTIVITIES_PER_CALL, data: (n, tag) => ({ organizationId: "org", documentId: "d", activities: activities(n, tag) }) })
      expect((await allPages(client, creds, { organizationId: "org" }, 1000)).seen.sort()).toEqual(activities(MAX_ACTIVITIES_PER_CALL, "at").map((a) => a.id).sort())
      const updated = await expectCap({
        post,
        path: UPDATE,
        field: "activities",
        max: MAX_ACTIVITIES_PER_CALL,
        data: (n, tag) => ({ organizationId: "org", activities: activities(n, "at").map(({ id }) => ({ id, displayMessageTemplate: tag })) })
      })
      expect(Object.values(updated.body.result.data).every((item: any) => item.success)).toBe(true)
      const page = await post(GET, { organizationId: "org", pageSize: 1000 })
      expect(page.body.result.data.every((a: { displayMessageTemplate: string }) => a.displayMessageTemplate === "at")).toBe(true)
    })
  })
})
