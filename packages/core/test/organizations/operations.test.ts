import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { expectCap } from "../../../../test-support/caps.js"
import { MAX_ORGANIZATIONS_PER_CALL } from "../../src/organizations/OrganizationSchemas.js"

forEachBackend("organizations", (ctx) => {
  describe("add + get", () => {
    it("pages through organizations with nextPageToken, in id order, the token only while more exist", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const organizations = ["o-3", "o-1", "o-5", "o-2", "o-4"].map((id) => ({ organizationId: id, organizationName: `Org ${id}` }))
      const added = await client.post("/v2/organizations/add", { organizations }, creds.headers)
      expect(added.status).toBe(200)

      const pages: Array<Array<string>> = []
      let nextPageToken: string | undefined
      do {
        const page = await client.post("/v2/organizations/get", { pageSize: 2, ...(nextPageToken && { pageToken: nextPageToken }) }, creds.headers)
        expect(page.status).toBe(200)
        expect(page.body.result.message).toBe("Organization(s) retrieved successfully.")
        pages.push(page.body.result.data.map((o: { id: string }) => o.id))
        nextPageToken = page.body.result.nextPageToken
        expect("pageToken" in page.body.result).toBe(false)
      } while (nextPageToken)
      expect(pages).toEqual([["o-1", "o-2"], ["o-3", "o-4"], ["o-5"]])

      const exact = await client.post("/v2/organizations/get", { pageSize: 5 }, creds.headers)
      expect(exact.body.result.data).toHaveLength(5)
      expect("nextPageToken" in exact.body.result).toBe(false)
    })

    it("filters by organizationIds and answers each organization's name and state", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await client.post("/v2/organizations/add", { organizations: [{ organizationId: "a", organizationName: "A" }, { organizationId: "b" }] }, creds.headers)
      await client.post("/v1/organizations/access/disablestate/update", { organizationIds: ["b"], disabled: true }, creds.headers)
      const got = await client.post("/v2/organizations/get", { organizationIds: ["b", "a", "missing"] }, creds.headers)
      expect(got.body.result.data).toEqual([
        { id: "a", organizationName: "A", disabled: false },
        { id: "b", organizationName: "", disabled: true }
      ])
    })

    it("never lists another API key's organizations, and refuses a page token made for another query", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await client.post("/v2/organizations/add", { organizations: [{ organizationId: "x" }, { organizationId: "y" }] }, a.headers)
      expect((await client.post("/v2/organizations/get", {}, b.headers)).body.result.data).toEqual([])
      const first = await client.post("/v2/organizations/get", { pageSize: 1 }, a.headers)
      const token = first.body.result.nextPageToken
      expect(typeof token).toBe("string")
      const foreign = await client.post("/v2/organizations/get", { pageSize: 1, pageToken: token }, b.headers)
      expect(foreign.status).toBe(400)
      expect(foreign.body.error.status).toBe("INVALID_ARGUMENT")
      const filtered = await client.post("/v2/organizations/get", { organizationIds: ["x", "y"], pageToken: token }, a.headers)
      expect(filtered.body.error.message).toContain("pageToken")
    })
  })

  describe("update", () => {
    it("renames and merges metadata of existing organizations, keeps their state, and reports unknown ones without creating them", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await client.post("/v2/organizations/add", { organizations: [{ organizationId: "a", organizationName: "A", plan: "free", seats: 3 }, { organizationId: "b", organizationName: "B" }] }, creds.headers)
      await client.post("/v2/organizations/access/disablestate/update", { organizationIds: ["b"], disabled: true }, creds.headers)

      const updated = await client.post("/v2/organizations/update", {
        organizations: [{ organizationId: "a", organizationName: "Acme", plan: "pro" }, { organizationId: "b", region: "eu" }, { organizationId: "ghost", organizationName: "Ghost" }]
      }, creds.headers)
      expect(updated.status).toBe(200)
      expect(updated.body).toEqual({
        result: {
          status: "success",
          message: "Organization(s) updated successfully.",
          data: {
            a: { success: true, id: "a", message: "Updated Successfully" },
            b: { success: true, id: "b", message: "Updated Successfully" },
            ghost: { success: false, id: "ghost", message: "Organization does not exist" }
          }
        }
      })
      const got = await client.post("/v2/organizations/get", { organizationIds: ["a", "b", "ghost"] }, creds.headers)
      expect(got.body.result.data).toEqual([
        { id: "a", organizationName: "Acme", disabled: false, plan: "pro", seats: 3 },
        // No name given: the name stays; the disabled flag is not the update's to change.
        { id: "b", organizationName: "B", disabled: true, region: "eu" }
      ])
    })

    it("updates only the caller's organizations and refuses a malformed batch, writing nothing", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await client.post("/v2/organizations/add", { organizations: [{ organizationId: "shared", organizationName: "A's" }] }, a.headers)
      const foreign = await client.post("/v2/organizations/update", { organizations: [{ organizationId: "shared", organizationName: "B's" }] }, b.headers)
      expect(foreign.body.result.data.shared).toEqual({ success: false, id: "shared", message: "Organization does not exist" })
      const bad = await client.post("/v2/organizations/update", { organizations: [{ organizationId: "shared", organizationName: "Renamed" }, { organizationName: "no id" }] }, a.headers)
      expect(bad.status).toBe(400)
      expect(bad.body.error.status).toBe("INVALID_ARGUMENT")
      expect(bad.body.error.message).toContain("organizationId")
      const got = await client.post("/v2/organizations/get", {}, a.headers)
      expect(got.body.result.data).toEqual([{ id: "shared", organizationName: "A's", disabled: false }])
      expect((await client.post("/v2/organizations/get", {}, b.headers)).body.result.data).toEqual([])
    })
  })

  describe("caps (issue 21: one call's work stays short)", () => {
    it(`organizations/add and disablestate/update take ${MAX_ORGANIZATIONS_PER_CALL} organizations; one more is refused, nothing written`, async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const post = (path: string, data: unknown) => client.post(path, data, creds.headers)
      const ids = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}-${i}`)
      await expectCap({
        post,
        path: "/v2/organizations/add",
        field: "organizations",
        max: MAX_ORGANIZATIONS_PER_CALL,
        data: (n, tag) => ({ organizations: ids(n, tag).map((organizationId) => ({ organizationId, organizationName: organizationId })) })
      })
      const listed = await post("/v2/organizations/get", { pageSize: 1000 })
      expect(listed.body.result.data.map((o: { id: string }) => o.id).sort()).toEqual(ids(MAX_ORGANIZATIONS_PER_CALL, "at").sort())
      const disabled = await expectCap({
        post,
        path: "/v1/organizations/access/disablestate/update",
        field: "organizationIds",
        max: MAX_ORGANIZATIONS_PER_CALL,
        data: (n) => ({ organizationIds: ids(n, "at"), disabled: true })
      })
      expect(Object.values(disabled.body.result.data).every((item: any) => item.success)).toBe(true)
      const after = await post("/v2/organizations/get", { pageSize: 1000 })
      expect(after.body.result.data.every((o: { disabled: boolean }) => o.disabled)).toBe(true)
    })
  })
})
