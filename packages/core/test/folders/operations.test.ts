import type { TestClient, TestCredentials } from "@atrium/core/testing"
import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { expectCap } from "../../../../test-support/caps.js"
import { MAX_FOLDERS_PER_CALL } from "../../src/folders/FolderSchemas.js"

const ADD = "/v2/organizations/folders/add"
const GET = "/v2/organizations/folders/get"

/** A folder record as folders/get returns it, for `creds`' key. */
const record = (creds: TestCredentials, fields: {
  folderId: string
  organizationId?: string
  parentFolderId?: string
  ancestors?: Array<string>
  accessType?: string
  inheritAccessFromParent?: boolean
  folderName?: string
}) => ({
  folderId: fields.folderId,
  folderName: fields.folderName ?? fields.folderId,
  organizationId: fields.organizationId ?? "org",
  parentFolderId: fields.parentFolderId ?? "root",
  apiKey: creds.apiKey,
  createdAt: expect.any(Number),
  lastUpdated: expect.any(Number),
  ancestors: fields.ancestors ?? ["root"],
  accessType: fields.accessType ?? "public",
  inheritAccessFromParent: fields.inheritAccessFromParent ?? true
})

/**
 * The tree used by the nesting tests:
 *   a ─ a1 ─ a11 ─ a111
 *     │    └ a12
 *     └ a2
 *   b
 */
const addTree = async (client: TestClient, creds: TestCredentials) => {
  const answer = await client.post(ADD, {
    organizationId: "org",
    createOrganization: true,
    folders: [
      { folderId: "a" },
      { folderId: "b" },
      { folderId: "a1", parentFolderId: "a" },
      { folderId: "a2", parentFolderId: "a" },
      { folderId: "a11", parentFolderId: "a1" },
      { folderId: "a12", parentFolderId: "a1" },
      { folderId: "a111", parentFolderId: "a11" }
    ]
  }, creds.headers)
  expect(answer.status).toBe(200)
}

forEachBackend("organizations/folders", (ctx) => {
  describe("folders/add", () => {
    it("adds folders, a later one under a parent added earlier in the same call", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const added = await client.post(ADD, {
        organizationId: "org",
        createOrganization: true,
        folders: [
          { folderId: "top", folderName: "Top" },
          { folderId: "child", folderName: "Child", parentFolderId: "top" },
          { folderId: "grandchild", parentFolderId: "child" }
        ]
      }, creds.headers)
      expect(added.status).toBe(200)
      expect(added.body).toEqual({
        result: {
          status: "success",
          message: "Folder created successfully.",
          data: {
            top: { success: true, id: "top", message: "Folder added." },
            child: { success: true, id: "child", message: "Folder added." },
            grandchild: { success: true, id: "grandchild", message: "Folder added." }
          }
        }
      })
      const got = await client.post(GET, { organizationId: "org" }, creds.headers)
      expect(got.body.result.data).toEqual([
        record(creds, { folderId: "child", folderName: "Child", parentFolderId: "top", ancestors: ["root", "top"] }),
        record(creds, { folderId: "grandchild", parentFolderId: "child", ancestors: ["root", "top", "child"] }),
        record(creds, { folderId: "top", folderName: "Top" })
      ])
      const [child] = got.body.result.data
      expect(child.lastUpdated).toBe(child.createdAt)
    })

    it("inherits the parent's access type unless one is given", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const added = await client.post(ADD, {
        organizationId: "org",
        createOrganization: true,
        folders: [
          { folderId: "p-default" },
          { folderId: "p-restricted", accessType: "restricted" },
          { folderId: "c-inherits", parentFolderId: "p-restricted" },
          { folderId: "c-private", parentFolderId: "p-restricted", accessType: "organizationPrivate" },
          { folderId: "g-inherits", parentFolderId: "c-private" },
          { folderId: "c-public", parentFolderId: "p-restricted", accessType: "public" }
        ]
      }, creds.headers)
      expect(Object.values(added.body.result.data).every((item: any) => item.success)).toBe(true)
      const got = await client.post(GET, { organizationId: "org" }, creds.headers)
      const access = Object.fromEntries(
        got.body.result.data.map((f: any) => [f.folderId, [f.accessType, f.inheritAccessFromParent]])
      )
      expect(access).toEqual({
        "p-default": ["public", true],
        "p-restricted": ["restricted", false],
        "c-inherits": ["restricted", true],
        "c-private": ["organizationPrivate", false],
        "g-inherits": ["organizationPrivate", true],
        "c-public": ["public", false]
      })
    })

    it("fails only the item whose parent does not exist, writing nothing for it", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const added = await client.post(ADD, {
        organizationId: "org",
        createOrganization: true,
        folders: [
          { folderId: "orphan", parentFolderId: "nowhere" },
          { folderId: "fine" },
          // Parents must come first: a later item does not count.
          { folderId: "early", parentFolderId: "late" },
          { folderId: "late" }
        ]
      }, creds.headers)
      expect(added.status).toBe(200)
      expect(added.body.result.data).toEqual({
        orphan: { success: false, id: "orphan", message: "Parent folder nowhere does not exist." },
        fine: { success: true, id: "fine", message: "Folder added." },
        early: { success: false, id: "early", message: "Parent folder late does not exist." },
        late: { success: true, id: "late", message: "Folder added." }
      })
      const got = await client.post(GET, { organizationId: "org" }, creds.headers)
      expect(got.body.result.data.map((f: any) => f.folderId)).toEqual(["fine", "late"])
      const orphan = await client.post(GET, { organizationId: "org", folderId: "orphan" }, creds.headers)
      expect(orphan.status).toBe(404)
    })

    it("refuses an existing folder id and the reserved id root, keeping the existing folder", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await client.post(ADD, { organizationId: "org", createOrganization: true, folders: [{ folderId: "f", folderName: "First" }] }, creds.headers)
      const again = await client.post(ADD, {
        organizationId: "org",
        folders: [{ folderId: "f", folderName: "Second" }, { folderId: "root" }]
      }, creds.headers)
      expect(again.status).toBe(200)
      expect(again.body.result.data).toEqual({
        f: { success: false, id: "f", message: "Folder already exists." },
        root: { success: false, id: "root", message: "root is reserved for the organization root." }
      })
      const got = await client.post(GET, { organizationId: "org" }, creds.headers)
      expect(got.body.result.data).toEqual([record(creds, { folderId: "f", folderName: "First" })])
    })

    it("answers NOT_FOUND for a missing organization unless createOrganization is true", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const refused = await client.post(ADD, { organizationId: "new-org", folders: [{ folderId: "f" }] }, creds.headers)
      expect(refused.status).toBe(404)
      expect(refused.body.error).toEqual({
        status: "NOT_FOUND",
        message: "Organization new-org does not exist; pass createOrganization: true to create it."
      })
      const stillNone = await client.post(GET, { organizationId: "new-org" }, creds.headers)
      expect(stillNone.body.result.data).toEqual([])
      const created = await client.post(ADD, { organizationId: "new-org", createOrganization: true, folders: [{ folderId: "f" }] }, creds.headers)
      expect(created.status).toBe(200)
      // The organization now exists: no createOrganization needed.
      const more = await client.post(ADD, { organizationId: "new-org", folders: [{ folderId: "g" }] }, creds.headers)
      expect(more.body.result.data.g.success).toBe(true)
    })

    it("validates the request", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const cases: Array<[unknown, string]> = [
        [{ folders: [{ folderId: "f" }] }, "data.organizationId"],
        [{ organizationId: "org", folders: [] }, "data.folders"],
        [{ organizationId: "org", folders: [{ folderName: "x" }] }, "data.folders[0].folderId"],
        [{ organizationId: "org", folders: [{ folderId: "f", accessType: "secret" }] }, "data.folders[0].accessType"],
        [{ organizationId: "org", folders: [{ folderId: "f" }, { folderId: "f" }] }, "data.folders[1].folderId"],
        [{ organizationId: "org", folders: [{ folderId: "x".repeat(257) }] }, "data.folders[0].folderId"],
        [{ organizationId: "org", folders: [{ folderId: "f", color: "red" }] }, "data.folders[0].color"]
      ]
      for (const [data, field] of cases) {
        const answer = await client.post(ADD, data, creds.headers)
        expect(answer.status, JSON.stringify(data)).toBe(400)
        expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
        expect(answer.body.error.message).toContain(field)
      }
      const atBound = await client.post(ADD, { organizationId: "org", createOrganization: true, folders: [{ folderId: "x".repeat(256) }] }, creds.headers)
      expect(atBound.status).toBe(200)
      expect(atBound.body.result.data["x".repeat(256)].success).toBe(true)
    })
  })

  describe("folders/get", () => {
    it("returns every folder of the organization, flat and ordered by id, without subFolders", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await addTree(client, creds)
      const got = await client.post(GET, { organizationId: "org" }, creds.headers)
      expect(got.status).toBe(200)
      expect(got.body.result.message).toBe("Folder(s) retrieved successfully.")
      expect(got.body.result.data).toEqual([
        record(creds, { folderId: "a" }),
        record(creds, { folderId: "a1", parentFolderId: "a", ancestors: ["root", "a"] }),
        record(creds, { folderId: "a11", parentFolderId: "a1", ancestors: ["root", "a", "a1"] }),
        record(creds, { folderId: "a111", parentFolderId: "a11", ancestors: ["root", "a", "a1", "a11"] }),
        record(creds, { folderId: "a12", parentFolderId: "a1", ancestors: ["root", "a", "a1"] }),
        record(creds, { folderId: "a2", parentFolderId: "a", ancestors: ["root", "a"] }),
        record(creds, { folderId: "b" })
      ])
      for (const folder of got.body.result.data) expect(folder).not.toHaveProperty("subFolders")
    })

    it("returns a folder with its immediate subfolders when maxDepth is omitted", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await addTree(client, creds)
      const got = await client.post(GET, { organizationId: "org", folderId: "a" }, creds.headers)
      expect(got.status).toBe(200)
      expect(got.body).toEqual({
        result: {
          status: "success",
          message: "Folder(s) retrieved successfully.",
          data: [{
            ...record(creds, { folderId: "a" }),
            subFolders: [
              record(creds, { folderId: "a1", parentFolderId: "a", ancestors: ["root", "a"] }),
              record(creds, { folderId: "a2", parentFolderId: "a", ancestors: ["root", "a"] })
            ]
          }]
        }
      })
    })

    it("nests subFolders maxDepth levels deep; folders above the limit carry subFolders, even empty", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await addTree(client, creds)
      const a1 = record(creds, { folderId: "a1", parentFolderId: "a", ancestors: ["root", "a"] })
      const a11 = record(creds, { folderId: "a11", parentFolderId: "a1", ancestors: ["root", "a", "a1"] })
      const a12 = record(creds, { folderId: "a12", parentFolderId: "a1", ancestors: ["root", "a", "a1"] })
      const a111 = record(creds, { folderId: "a111", parentFolderId: "a11", ancestors: ["root", "a", "a1", "a11"] })
      const a2 = record(creds, { folderId: "a2", parentFolderId: "a", ancestors: ["root", "a"] })
      const get = (maxDepth: number) => client.post(GET, { organizationId: "org", folderId: "a", maxDepth }, creds.headers)

      const zero = await get(0)
      expect(zero.body.result.data).toEqual([record(creds, { folderId: "a" })])
      expect(zero.body.result.data[0]).not.toHaveProperty("subFolders")

      const two = await get(2)
      expect(two.body.result.data).toEqual([{
        ...record(creds, { folderId: "a" }),
        subFolders: [{ ...a1, subFolders: [a11, a12] }, { ...a2, subFolders: [] }]
      }])
      expect(two.body.result.data[0].subFolders[0].subFolders[0]).not.toHaveProperty("subFolders")

      const three = await get(3)
      expect(three.body.result.data).toEqual([{
        ...record(creds, { folderId: "a" }),
        subFolders: [
          { ...a1, subFolders: [{ ...a11, subFolders: [a111] }, { ...a12, subFolders: [] }] },
          { ...a2, subFolders: [] }
        ]
      }])

      // Deeper than the tree: empty subFolders down to the leaves.
      const ten = await get(10)
      expect(ten.status).toBe(200)
      expect(ten.body.result.data[0].subFolders[0].subFolders[0].subFolders[0]).toEqual({ ...a111, subFolders: [] })
    })

    it("answers NOT_FOUND for an unknown folder", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await addTree(client, creds)
      const got = await client.post(GET, { organizationId: "org", folderId: "nope" }, creds.headers)
      expect(got.status).toBe(404)
      expect(got.body.error).toEqual({ status: "NOT_FOUND", message: "Folder not found." })
      const otherOrg = await client.post(GET, { organizationId: "other", folderId: "a" }, creds.headers)
      expect(otherOrg.status).toBe(404)
    })

    it("refuses maxDepth outside 0..10 and accepts both bounds", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await addTree(client, creds)
      for (const maxDepth of [11, -1, 1.5, "2"]) {
        const answer = await client.post(GET, { organizationId: "org", folderId: "a", maxDepth }, creds.headers)
        expect(answer.status, String(maxDepth)).toBe(400)
        expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
        expect(answer.body.error.message).toContain("data.maxDepth")
      }
      for (const maxDepth of [0, 10]) {
        const answer = await client.post(GET, { organizationId: "org", folderId: "a", maxDepth }, creds.headers)
        expect(answer.status).toBe(200)
      }
      const noOrg = await client.post(GET, {}, creds.headers)
      expect(noOrg.status).toBe(400)
      expect(noOrg.body.error.message).toContain("data.organizationId")
    })
  })

  describe("folders/update", () => {
    const UPDATE = "/v2/organizations/folders/update"
    /** Every folder of the organization as `id: ancestors accessType`. */
    const tree = async (client: TestClient, creds: TestCredentials) =>
      Object.fromEntries(((await client.post(GET, { organizationId: "org" }, creds.headers)).body.result.data as Array<{ folderId: string; folderName: string; ancestors: Array<string>; accessType: string; parentFolderId: string }>)
        .map((f) => [f.folderId, `${f.folderName} < ${f.ancestors.join("/")} ${f.accessType}`]))

    it("renames in place, and a move rewrites the whole subtree's ancestors and the access types that follow the new parent", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await addTree(client, creds)
      await client.post("/v2/organizations/folders/access/update", { organizationId: "org", folderIds: ["b"], accessType: "restricted" }, creds.headers)
      // a12 keeps a type of its own: a move leaves it as it is.
      await client.post("/v2/organizations/folders/access/update", { organizationId: "org", folderIds: ["a12"], accessType: "organizationPrivate" }, creds.headers)

      const renamed = await client.post(UPDATE, { organizationId: "org", folders: [{ folderId: "a2", folderName: "Second" }] }, creds.headers)
      expect(renamed.body.result).toEqual({ status: "success", message: "Folder Updated successfully.", data: { a2: { success: true, id: "a2", message: "Folder Updated." } } })

      const moved = await client.post(UPDATE, { organizationId: "org", folders: [{ folderId: "a1", parentFolderId: "b", folderName: "First" }] }, creds.headers)
      expect(moved.body.result.data).toEqual({ a1: { success: true, id: "a1", message: "Folder Updated." } })
      expect(await tree(client, creds)).toEqual({
        a: "a < root public",
        a2: "Second < root/a public",
        b: "b < root restricted",
        a1: "First < root/b restricted",
        a11: "a11 < root/b/a1 restricted",
        a111: "a111 < root/b/a1/a11 restricted",
        a12: "a12 < root/b/a1 organizationPrivate"
      })
      const one = (await client.post(GET, { organizationId: "org", folderId: "a1" }, creds.headers)).body.result.data[0]
      expect(one).toMatchObject({ parentFolderId: "b", subFolders: [expect.objectContaining({ folderId: "a11" }), expect.objectContaining({ folderId: "a12" })] })
      expect((await client.post(GET, { organizationId: "org", folderId: "a" }, creds.headers)).body.result.data[0].subFolders.map((f: { folderId: string }) => f.folderId)).toEqual(["a2"])

      // Back to the top: the access type follows the root's again.
      await client.post(UPDATE, { organizationId: "org", folders: [{ folderId: "a1", parentFolderId: "root" }] }, creds.headers)
      expect(await tree(client, creds)).toMatchObject({ a1: "First < root public", a11: "a11 < root/a1 public", a111: "a111 < root/a1/a11 public", a12: "a12 < root/a1 organizationPrivate" })
    })

    it("fails the item of a missing folder, a missing parent, or a move into the folder's own subtree, and writes none of it", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await addTree(client, creds)
      const before = await tree(client, creds)
      const answered = await client.post(UPDATE, {
        organizationId: "org",
        folders: [
          { folderId: "ghost", folderName: "Ghost" },
          { folderId: "a", parentFolderId: "nowhere", folderName: "Renamed?" },
          { folderId: "a1", parentFolderId: "a111" },
          { folderId: "a11", parentFolderId: "a11" },
          { folderId: "b", folderName: "Bee" }
        ]
      }, creds.headers)
      expect(answered.status).toBe(200)
      expect(answered.body.result.data).toEqual({
        ghost: { success: false, id: "ghost", message: "Folder does not exist" },
        a: { success: false, id: "a", message: "Parent folder nowhere does not exist." },
        a1: { success: false, id: "a1", message: "Folder a1 cannot move under a111: it is the folder itself or one of its subfolders." },
        a11: { success: false, id: "a11", message: "Folder a11 cannot move under a11: it is the folder itself or one of its subfolders." },
        b: { success: true, id: "b", message: "Folder Updated." }
      })
      expect(await tree(client, creds)).toEqual({ ...before, b: "Bee < root public" })
    })

    it("refuses a folder named twice, and touches only the caller's folders", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const other = await workspace()
      await addTree(client, creds)
      const twice = await client.post(UPDATE, { organizationId: "org", folders: [{ folderId: "a", folderName: "x" }, { folderId: "a", folderName: "y" }] }, creds.headers)
      expect(twice.status).toBe(400)
      expect(twice.body.error.message).toContain("a appears more than once")
      const foreign = await client.post(UPDATE, { organizationId: "org", folders: [{ folderId: "a", folderName: "Theirs" }] }, other.headers)
      expect(foreign.body.result.data.a.success).toBe(false)
      expect((await tree(client, creds)).a).toBe("a < root public")
    })
  })

  describe("isolation and disabled organizations", () => {
    it("never shows another API key's folders", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await addTree(client, a)
      const all = await client.post(GET, { organizationId: "org" }, b.headers)
      expect(all.body.result.data).toEqual([])
      const one = await client.post(GET, { organizationId: "org", folderId: "a" }, b.headers)
      expect(one.status).toBe(404)
      // b's own folder named like a's: a parent of a's key is not visible to b either.
      const added = await client.post(ADD, { organizationId: "org", createOrganization: true, folders: [{ folderId: "x", parentFolderId: "a" }] }, b.headers)
      expect(added.body.result.data.x.success).toBe(false)
    })

    it("refuses both operations with PERMISSION_DENIED while the organization is disabled", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await addTree(client, creds)
      const disable = (disabled: boolean) =>
        client.post("/v1/organizations/access/disablestate/update", { organizationIds: ["org"], disabled }, creds.headers)
      await disable(true)
      const add = await client.post(ADD, { organizationId: "org", folders: [{ folderId: "new" }] }, creds.headers)
      expect(add.status).toBe(403)
      expect(add.body.error.status).toBe("PERMISSION_DENIED")
      const get = await client.post(GET, { organizationId: "org" }, creds.headers)
      expect(get.status).toBe(403)
      await disable(false)
      const after = await client.post(GET, { organizationId: "org" }, creds.headers)
      expect(after.status).toBe(200)
      expect(after.body.result.data.map((f: any) => f.folderId)).not.toContain("new")
    })
  })

  describe("caps (issue 21: one call's work stays short)", () => {
    it(`folders/add takes ${MAX_FOLDERS_PER_CALL} folders, each in the one before; one more is refused, nothing written`, async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const chain = (n: number, tag: string) =>
        Array.from({ length: n }, (_, i) => ({ folderId: `${tag}-${i}`, ...(i > 0 && { parentFolderId: `${tag}-${i - 1}` }) }))
      const added = await expectCap({
        post: (path, data) => client.post(path, data, creds.headers),
        path: ADD,
        field: "folders",
        max: MAX_FOLDERS_PER_CALL,
        data: (n, tag) => ({ organizationId: "org", createOrganization: true, folders: chain(n, tag) })
      })
      expect(Object.values(added.body.result.data).every((item: any) => item.success)).toBe(true)
      const all = await client.post(GET, { organizationId: "org" }, creds.headers)
      expect(all.body.result.data).toHaveLength(MAX_FOLDERS_PER_CALL)
      const deepest = all.body.result.data.find((f: { folderId: string }) => f.folderId === `at-${MAX_FOLDERS_PER_CALL - 1}`)
      expect(deepest.ancestors).toHaveLength(MAX_FOLDERS_PER_CALL)
    })
  })
})
