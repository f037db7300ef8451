/** folders/: FoldersRepo. */
import * as Effect from "effect/Effect"
import { FoldersRepo } from "../../folders/FoldersRepo.js"
import { folder, type StorageCases, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("FoldersRepo: rows come back exactly as written, listed by organization and by parent", () =>
    Effect.gen(function*() {
      const folders = yield* FoldersRepo
      const apiKey = unique("key")
      for (const [id, parent] of [["f2", "root"], ["f1", "root"], ["c2", "f1"], ["c1", "f1"], ["c3", "f2"], ["g1", "c1"]] as const) {
        yield* folders.insert(folder(apiKey, "org", id, parent))
      }
      expect(yield* folders.find(apiKey, "org", "c1")).toEqual(folder(apiKey, "org", "c1", "f1"))
      expect((yield* folders.listByOrganization(apiKey, "org")).map((f) => f.id)).toEqual(["c1", "c2", "c3", "f1", "f2", "g1"])
      expect((yield* folders.listChildren(apiKey, "org", ["f2", "f1"])).map((f) => f.id)).toEqual(["c1", "c2", "c3"])
      expect(yield* folders.listChildren(apiKey, "org", [])).toEqual([])
    }))

  it.effect("FoldersRepo.setAccess stores a folder's access type and whether it follows its parent", () =>
    Effect.gen(function*() {
      const folders = yield* FoldersRepo
      const apiKey = unique("key")
      yield* folders.insert(folder(apiKey, "org", "f", "root"))
      yield* folders.setAccess(apiKey, "org", "f", { accessType: "organizationPrivate", inheritAccessFromParent: true }, 42)
      expect(yield* folders.find(apiKey, "org", "f")).toEqual({
        ...folder(apiKey, "org", "f", "root"),
        accessType: "organizationPrivate",
        inheritAccessFromParent: true,
        lastUpdated: 42
      })
    }))

  it.effect("FoldersRepo.setPlace stores a folder's name, parent and ancestors, and nothing else of it", () =>
    Effect.gen(function*() {
      const folders = yield* FoldersRepo
      const apiKey = unique("key")
      yield* folders.insert(folder(apiKey, "org", "f", "root"))
      yield* folders.insert(folder(apiKey, "org", "other", "root"))
      yield* folders.setPlace(apiKey, "org", "f", { name: "Moved", parentFolderId: "p", ancestors: ["root", "q", "p"] }, 43)
      expect(yield* folders.find(apiKey, "org", "f")).toEqual({
        ...folder(apiKey, "org", "f", "root"),
        name: "Moved",
        parentFolderId: "p",
        ancestors: ["root", "q", "p"],
        lastUpdated: 43
      })
      expect(yield* folders.find(apiKey, "org", "other")).toEqual(folder(apiKey, "org", "other", "root"))
    }))
}
