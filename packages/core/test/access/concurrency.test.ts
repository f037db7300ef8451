/**
 * The access writes under real load (issue 23): 50 clients at once over HTTP, on SQLite (one
 * write transaction at a time) and PostgreSQL (side by side; the access version bumped by
 * deferred triggers at commit), and on two servers sharing one PostgreSQL database. Every grant
 * written is kept and every removal counts; no answer is a 500; callers naming the same things
 * in other orders leave what one serial order leaves; the folder tree stays consistent with
 * itself; and what the access rule answers afterwards — through the facts each server keeps
 * (AccessFactsCache.ts), read before each storm so that they are kept — is what storage says,
 * on every server. On PostgreSQL the storms must not deadlock at all: a deadlock is broken only
 * after a second, and fifty callers that kept deadlocking ran out of retries.
 */
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Started, twoPostgresServersOverHttp, type TwoServers } from "../../../../test-support/backends.js"
import { concurrentBackends, inOrderOf, statuses, together } from "../../../../test-support/concurrent.js"
import { AccessRepo } from "../../src/access/AccessRepo.js"
import { type TestCredentials, userHeadersFor } from "../../src/testing/index.js"

type AccessType = "public" | "restricted" | "organizationPrivate"
type Role = "editor" | "viewer" | null

const TYPES: ReadonlyArray<AccessType> = ["restricted", "organizationPrivate", "public"]

const range = (count: number) => Array.from({ length: count }, (_, i) => i)

/** The role of a permissions/get entry: its accessRole, or null when denied. */
const entryRole = (entry: { readonly accessRole?: Role } | undefined): Role => entry?.accessRole ?? null

/** What one server answers about one workspace: calls with its key, as a user, and its access version. */
const callsOf = (started: Started, creds: TestCredentials) => {
  const post = (path: string, data: unknown) => started.client.post(path, data, creds.headers)
  const ok = async (path: string, data: unknown) => {
    const answer = await post(path, data)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  /** Each document's role for the user, as the client API answers it (at most 30 a call). */
  const roles = async (user: Readonly<Record<string, string>>, organizationId: string, documentIds: ReadonlyArray<string>) => {
    const answer = await started.client.post("/v2/client/access/get", { organizationId, documentIds }, user)
    if (answer.status !== 200) throw new Error(`client/access/get: ${answer.status} ${answer.text}`)
    return Object.fromEntries(Object.entries(answer.body.result.data as Record<string, { accessRole: Role }>).map(([id, { accessRole }]) => [id, accessRole]))
  }
  /** auth/permissions/get for one user, each list cut to the call's cap. */
  const permissions = async (organizationId: string, userId: string, ids: { readonly folderIds?: ReadonlyArray<string>; readonly documentIds?: ReadonlyArray<string> }) => {
    const answer: { folders: Record<string, any>; documents: Record<string, any> } = { folders: {}, documents: {} }
    for (const [field, list] of [["folderIds", ids.folderIds ?? []], ["documentIds", ids.documentIds ?? []]] as const) {
      for (let at = 0; at < list.length; at += 30) {
        const read = (await ok("/v2/auth/permissions/get", { organizationId, userIds: [userId], [field]: list.slice(at, at + 30) })).data[userId]
        Object.assign(answer.folders, read.folders)
        Object.assign(answer.documents, read.documents)
      }
    }
    return answer
  }
  /**
   * Every user's role on the organization and on each document, as auth/permissions/get answers
   * them, in calls of 25 users by 12 documents (the call's cap: 300 decisions).
   */
  const roleTable = async (organizationId: string, userIds: ReadonlyArray<string>, documentIds: ReadonlyArray<string>) => {
    const organization: Record<string, Role> = {}
    const documents: Record<string, Record<string, Role>> = Object.fromEntries(userIds.map((userId) => [userId, {}]))
    for (let users = 0; users < userIds.length; users += 25) {
      for (let at = 0; at === 0 || at < documentIds.length; at += 12) {
        const read = (await ok("/v2/auth/permissions/get", { organizationId, userIds: userIds.slice(users, users + 25), documentIds: documentIds.slice(at, at + 12) })).data
        for (const [userId, answer] of Object.entries(read as Record<string, any>)) {
          organization[userId] = entryRole(answer.organization[organizationId])
          for (const [documentId, entry] of Object.entries(answer.documents)) documents[userId]![documentId] = entryRole(entry as any)
        }
      }
    }
    return { organization, documents }
  }
  /** A token generate_token issued for the user, as client API headers (every server on the database accepts it). */
  const token = (userId: string) => userHeadersFor(started.client, creds.headers, userId)
  /** The key's access version (migration 0014), read through the server. */
  const version = () => started.atrium.runtime.runPromise(Effect.flatMap(AccessRepo, (repo) => repo.version(creds.apiKey)))
  return { post, ok, roles, permissions, roleTable, token, version }
}

type Calls = ReturnType<typeof callsOf>

/**
 * One workspace through one server, or through two on one database: the i-th caller of a storm
 * goes through `via(i)`, and what the rule answers afterwards is asked of `every` server.
 */
interface Cluster {
  readonly every: ReadonlyArray<Calls>
  readonly via: (i: number) => Calls
}

const clusterOf = async (servers: ReadonlyArray<Started>): Promise<Cluster> => {
  const creds = await servers[0]!.workspace()
  const every = servers.map((started) => callsOf(started, creds))
  return { every, via: (i) => every[i % every.length]! }
}

/** Organization `org` with folder `closed` (restricted) holding `doc`, `doc2` and d0…d49. */
const seedClosed = (calls: Calls) =>
  calls.ok("/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "closed", accessType: "restricted" }] }).then(() =>
    calls.ok("/v1/organizations/documents/add", {
      organizationId: "org",
      folderId: "closed",
      documents: ["doc", "doc2", ...range(50).map((i) => `d${i}`)].map((documentId) => ({ documentId }))
    }))

/** Each storm: a title and what it does to a cluster. */
const storms: Record<string, (cluster: Cluster) => Promise<void>> = {
  "auth/permissions/add and remove: 50 users granted at once, each on a document of its own, one shared and a new organization; then 50 removes at once": async (cluster) => {
    const [first] = cluster.every
    await seedClosed(first!)
    const users = range(50).map((i) => `u${i}`)
    const roleFor = (i: number): "viewer" | "editor" => i % 2 === 0 ? "viewer" : "editor"
    const tokens = await together(50, (i) => first!.token(users[i]!))
    // permissions/get asks every user about `doc` and d0…d4 (each decision reads the version, a round trip on PostgreSQL);
    // the client API asks each user about its own document and its neighbour's.
    const documents = ["doc", ...range(5).map((i) => `d${i}`)]
    const expected = (granted: boolean) => ({
      organization: Object.fromEntries(users.map((userId) => [userId, granted ? "viewer" : null])),
      documents: Object.fromEntries(users.map((userId, i) => [
        userId,
        Object.fromEntries(documents.map((id) => [id, granted && (id === "doc" || id === `d${i}`) ? roleFor(i) : null]))
      ]))
    })
    const expectSeen = async (granted: boolean) => {
      for (const calls of cluster.every) {
        expect((await calls.roleTable("org", users, documents)).documents).toEqual(expected(granted).documents)
        expect((await calls.roleTable("fresh", users, [])).organization).toEqual(expected(granted).organization)
        const byClient = await together(50, (i) => calls.roles(tokens[i]!, "org", ["doc", `d${i}`, `d${(i + 1) % 50}`]))
        for (const [i, roles] of byClient.entries()) {
          expect(roles).toEqual({ doc: granted ? roleFor(i) : null, [`d${i}`]: granted ? roleFor(i) : null, [`d${(i + 1) % 50}`]: null })
        }
      }
    }
    await expectSeen(false) // and kept now: what is answered after the storm must not come from these facts
    const before = await first!.version()

    const added = await together(50, (i) =>
      cluster.via(i).post("/v2/auth/permissions/add", {
        user: { userId: users[i] },
        permissions: {
          resources: [
            { type: "document", id: `d${i}`, organizationId: "org", accessRole: roleFor(i) },
            { type: "document", id: "doc", organizationId: "org", accessRole: roleFor(i) },
            { type: "organization", id: "fresh", accessRole: "viewer" }
          ]
        }
      }))
    expect(statuses(added)).toEqual({ 200: 50 })
    // One bump per membership row written, and one for `fresh`, made once: none lost to a race.
    expect(await first!.version()).toBe(before + 151)
    await expectSeen(true)

    const removed = await together(50, (i) =>
      cluster.via(i + 1).post("/v2/auth/permissions/remove", {
        userId: users[i],
        permissions: {
          resources: [
            { type: "document", id: `d${i}`, organizationId: "org" },
            { type: "document", id: "doc", organizationId: "org" },
            { type: "organization", id: "fresh" }
          ]
        }
      }))
    expect(statuses(removed)).toEqual({ 200: 50 })
    expect(await first!.version()).toBe(before + 301)
    await expectSeen(false)
  },

  "auth/permissions/add and remove: one user not added yet, granted 50 documents by 50 callers at once, then each removed at once": async (cluster) => {
    await seedClosed(cluster.every[0]!)
    const documents = range(50).map((i) => `d${i}`)
    const ann = await cluster.every[0]!.token("ann")
    const annRoles = async (calls: Calls) => ({ ...await calls.roles(ann, "org", documents.slice(0, 30)), ...await calls.roles(ann, "org", documents.slice(30)) })
    const expectEverywhere = async (role: Role) => {
      for (const calls of cluster.every) {
        expect(await annRoles(calls)).toEqual(Object.fromEntries(documents.map((id) => [id, role])))
        const stored = await calls.permissions("org", "ann", { documentIds: documents })
        for (const id of documents) expect(entryRole(stored.documents[id])).toBe(role)
      }
    }
    await expectEverywhere(null)

    const added = await together(50, (i) =>
      cluster.via(i).post("/v2/auth/permissions/add", {
        user: { userId: "ann" },
        permissions: { resources: [{ type: "document", id: documents[i], organizationId: "org", accessRole: "editor" }] }
      }))
    expect(statuses(added)).toEqual({ 200: 50 })
    await expectEverywhere("editor")

    const removed = await together(50, (i) =>
      cluster.via(i).post("/v2/auth/permissions/remove", { userId: "ann", permissions: { resources: [{ type: "document", id: documents[i], organizationId: "org" }] } }))
    expect(statuses(removed)).toEqual({ 200: 50 })
    await expectEverywhere(null)
  },

  "auth/permissions/add: 50 grants naming two new organizations in other orders each make what they name": async (cluster) => {
    const users = range(50).map((i) => `u${i}`)
    for (let round = 0; round < 3; round++) {
      const pair = [`east${round}`, `west${round}`]
      const answers = await together(50, (i) =>
        cluster.via(i).post("/v2/auth/permissions/add", {
          user: { userId: users[i] },
          permissions: { resources: inOrderOf(pair, i).map((id) => ({ type: "organization", id, accessRole: "viewer" })) }
        }))
      expect(statuses(answers)).toEqual({ 200: 50 })
      for (const calls of cluster.every) {
        for (const organizationId of pair) {
          expect((await calls.roleTable(organizationId, users, [])).organization).toEqual(Object.fromEntries(users.map((userId) => [userId, "viewer"])))
        }
      }
    }
  },

  "auth/permissions/add and remove of the same two grants, 50 at once, leave what one serial order leaves": async (cluster) => {
    await seedClosed(cluster.every[0]!)
    const token = await cluster.every[0]!.token("mix")
    const later = Date.now() + 3_600_000
    for (let round = 0; round < 3; round++) {
      // Each add writes both grants with its own role and expiry, each remove deletes both: one after the other,
      // they leave both grants from the same add, or neither.
      const adds = new Map<number, { accessRole: "viewer" | "editor"; expiresAt: number }>()
      const answers = await together(50, (i) => {
        const resources = ["doc", "doc2"].map((id) => ({ type: "document", id, organizationId: "org" }))
        if (i % 2 === 1) return cluster.via(i).post("/v2/auth/permissions/remove", { userId: "mix", permissions: { resources } })
        const grant = { accessRole: i % 4 === 0 ? "viewer" as const : "editor" as const, expiresAt: later + round * 100 + i }
        adds.set(grant.expiresAt, grant)
        return cluster.via(i).post("/v2/auth/permissions/add", { user: { userId: "mix" }, permissions: { resources: resources.map((resource) => ({ ...resource, ...grant })) } })
      })
      expect(statuses(answers)).toEqual({ 200: 50 })
      for (const calls of cluster.every) {
        const stored = (await calls.permissions("org", "mix", { documentIds: ["doc", "doc2"] })).documents
        const byClient = await calls.roles(token, "org", ["doc", "doc2"])
        if (stored.doc.accessRole === undefined) {
          expect(stored.doc2).toMatchObject({ errorCode: "permission_denied" })
          expect(byClient).toEqual({ doc: null, doc2: null })
        } else {
          const grant = adds.get(stored.doc.expiresAt)
          expect(grant).toBeDefined()
          expect(stored.doc).toEqual({ ...grant, accessType: "restricted" })
          expect(stored.doc2).toEqual(stored.doc)
          expect(byClient).toEqual({ doc: grant!.accessRole, doc2: grant!.accessRole })
        }
      }
    }
  },

  "users/add, users/update and users/delete: 50 callers naming the same users in other orders": async (cluster) => {
    const users = range(8).map((i) => `v${i}`)
    const expectRoles = async (role: Role) => {
      for (const calls of cluster.every) {
        expect((await calls.roleTable("org", users, [])).organization).toEqual(Object.fromEntries(users.map((userId) => [userId, role])))
      }
    }
    await cluster.every[0]!.ok("/v2/organizations/add", { organizations: [{ organizationId: "org" }] })
    await expectRoles(null)
    const write = async (path: string, user: (userId: string) => unknown) => {
      const answers = await together(50, (i) => cluster.via(i).post(path, { organizationId: "org", users: inOrderOf(users, i).map(user) }))
      expect(statuses(answers)).toEqual({ 200: 50 })
    }
    await write("/v2/users/add", (userId) => ({ userId, accessRole: "viewer" }))
    await expectRoles("viewer")
    await write("/v2/users/update", (userId) => ({ userId, accessRole: "editor" }))
    await expectRoles("editor")
    const deleted = await together(50, (i) => cluster.via(i).post("/v2/users/delete", { organizationId: "org", userIds: inOrderOf(users, i) }))
    expect(statuses(deleted)).toEqual({ 200: 50 })
    await expectRoles(null)
  },

  "usergroups/add and usergroups/users/add and delete: 50 callers naming the same groups and users in other orders": async (cluster) => {
    const [first] = cluster.every
    const users = range(8).map((i) => `v${i}`)
    const groups = range(8).map((i) => `g${i}`)
    await first!.ok("/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "members", accessType: "organizationPrivate" }] })
    await first!.ok("/v1/organizations/documents/add", { organizationId: "org", folderId: "members", documents: [{ documentId: "inner" }] })
    const tokens = await Promise.all(users.map((userId) => first!.token(userId)))
    // Members of the organization's user groups may open its organizationPrivate documents; nobody else.
    const expectMembers = async (members: boolean) => {
      for (const calls of cluster.every) {
        for (const [i, roles] of (await Promise.all(tokens.map((user) => calls.roles(user, "org", ["inner"])))).entries()) {
          expect(roles, users[i]).toEqual({ inner: members ? "editor" : null })
        }
      }
    }
    await expectMembers(false)
    const named = await together(50, (i) =>
      cluster.via(i).post("/v2/organizations/usergroups/add", { organizationId: "org", organizationUserGroups: inOrderOf(groups, i).map((groupId) => ({ groupId, groupName: `${groupId} by ${i}` })) }))
    expect(statuses(named)).toEqual({ 200: 50 })
    const group = (path: string) => together(50, (i) => cluster.via(i).post(path, { organizationId: "org", organizationUserGroupId: groups[i % 2], userIds: inOrderOf(users, i) }))
    expect(statuses(await group("/v2/organizations/usergroups/users/add"))).toEqual({ 200: 50 })
    await expectMembers(true)
    expect(statuses(await group("/v2/organizations/usergroups/users/delete"))).toEqual({ 200: 50 })
    await expectMembers(false)
  },

  "documents/access/update, disablestate/update and v1 add (a move): 50 callers naming the same documents in other orders leave them all alike": async (cluster) => {
    const [first] = cluster.every
    const documents = range(8).map((i) => `e${i}`)
    await first!.ok("/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "left" }, { folderId: "right", accessType: "restricted" }] })
    await first!.ok("/v1/organizations/documents/add", { organizationId: "org", documents: documents.map((documentId) => ({ documentId })) })
    await first!.permissions("org", "outsider", { documentIds: documents }) // kept now
    const answers = await together(50, (i) => {
      const ids = inOrderOf(documents, i)
      switch (i % 3) {
        case 0:
          return cluster.via(i).post("/v2/organizations/documents/access/update", { organizationId: "org", documentIds: ids, accessType: TYPES[Math.floor(i / 3) % 3] })
        case 1:
          return cluster.via(i).post("/v2/organizations/documents/access/disablestate/update", { organizationId: "org", documentIds: ids, disabled: i % 2 === 0 })
        default:
          return cluster.via(i).post("/v1/organizations/documents/add", { organizationId: "org", folderId: i % 2 === 0 ? "left" : "right", documents: ids.map((documentId) => ({ documentId })) })
      }
    })
    expect(statuses(answers)).toEqual({ 200: 50 })
    // Every call wrote all eight: one after the other, they leave all eight alike — the last call's type, state and folder.
    const stored = (await first!.ok("/v2/organizations/documents/get", { organizationId: "org", documentIds: documents })).data as Array<{ id: string; accessType: AccessType; disabled: boolean }>
    expect(stored).toHaveLength(8)
    expect(new Set(stored.map((document) => document.accessType)).size).toBe(1)
    expect(new Set(stored.map((document) => document.disabled)).size).toBe(1)
    const inLeft = (await first!.ok("/v2/organizations/documents/get", { organizationId: "org", folderId: "left" })).data.length
    expect([0, 8]).toContain(inLeft)
    for (const calls of cluster.every) {
      const read = await calls.permissions("org", "outsider", { documentIds: documents })
      for (const document of stored) expect(read.documents[document.id].accessType).toBe(document.accessType) // its own: no folder's reaches it
    }
  },

  "organizations/add and access/disablestate/update: 50 callers naming the same organizations in other orders": async (cluster) => {
    const organizations = range(8).map((i) => `o${i}`)
    await cluster.every[0]!.ok("/v2/organizations/add", { organizations: organizations.map((organizationId) => ({ organizationId })) })
    const answers = await together(50, (i) =>
      i % 2 === 0
        ? cluster.via(i).post("/v2/organizations/add", { organizations: inOrderOf(organizations, i).map((organizationId) => ({ organizationId, [`k${i}`]: i })) })
        : cluster.via(i).post("/v2/organizations/access/disablestate/update", { organizationIds: inOrderOf(organizations, i), disabled: i % 4 === 1 }))
    expect(statuses(answers)).toEqual({ 200: 50 })
    const stored = (await cluster.every[0]!.ok("/v2/organizations/get", { organizationIds: organizations })).data as Array<Record<string, unknown>>
    expect(stored).toHaveLength(8)
    // Each switch named all eight: one after the other, they leave all eight alike. Each add's metadata is merged into every one.
    expect(new Set(stored.map((organization) => organization.disabled)).size).toBe(1)
    for (const organization of stored) {
      for (const i of range(50).filter((i) => i % 2 === 0)) expect(organization[`k${i}`] ?? (organization.metadata as any)?.[`k${i}`]).toBe(i)
    }
  },

  "folder writes at once under one tree: no 500, and every document's access type is what its folder chain says": async (cluster) => {
    const [first] = cluster.every
    // A tree three levels deep; without accessType a folder follows its parent.
    const tree: ReadonlyArray<{ folderId: string; parentFolderId?: string; accessType?: AccessType }> = [
      { folderId: "A", accessType: "restricted" },
      { folderId: "A1", parentFolderId: "A" },
      { folderId: "A1a", parentFolderId: "A1" },
      { folderId: "A1b", parentFolderId: "A1", accessType: "public" },
      { folderId: "A2", parentFolderId: "A" },
      { folderId: "B", accessType: "organizationPrivate" },
      { folderId: "B1", parentFolderId: "B" },
      { folderId: "B1a", parentFolderId: "B1" },
      { folderId: "C" },
      { folderId: "C1", parentFolderId: "C", accessType: "restricted" }
    ]
    const folders = tree.map((folder) => folder.folderId)
    await first!.ok("/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: tree })
    for (const folderId of folders) {
      await first!.ok("/v1/organizations/documents/add", { organizationId: "org", folderId, documents: [{ documentId: `${folderId}-doc` }] })
    }
    await first!.ok("/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "top" }] })
    const documents = [...folders.map((folderId) => `${folderId}-doc`), "top"]
    const outsider = await first!.token("outsider")

    /** What the rule answers now, on one server: each folder's and document's access type, and the outsider's role per document. */
    const answered = async (calls: Calls, folderIds: ReadonlyArray<string>, documentIds: ReadonlyArray<string>) => {
      const read = await calls.permissions("org", "outsider", { folderIds, documentIds })
      return {
        folders: Object.fromEntries(folderIds.map((id) => [id, read.folders[id].accessType as AccessType])),
        documents: Object.fromEntries(documentIds.map((id) => [id, read.documents[id].accessType as AccessType])),
        roles: await calls.roles(outsider, "org", documentIds)
      }
    }
    for (const calls of cluster.every) await answered(calls, folders, documents) // kept now: what each storm leaves must not be answered from them

    // Access changes twice as often as the rest: a folder that starts or stops following its parent while the parent's type changes is the race.
    const kinds = ["type", "inherit", "add", "type", "inherit", "move", "move into new", "new document"] as const
    const kindOf = (i: number) => kinds[i % kinds.length]!
    const everyDocument = [...documents]
    for (let round = 0; round < 2; round++) {
      /** The folder the round's i-th caller adds. */
      const added = (i: number) => `n${round}x${i}`
      const answers = await together(50, (i) => {
        const folder = folders[(i * 7) % folders.length]!
        const post = cluster.via(i).post
        switch (kindOf(i)) {
          case "type":
            return post("/v2/organizations/folders/access/update", {
              organizationId: "org",
              folderIds: i % 2 === 0 ? [folder] : [folder, folders[(i * 3) % folders.length]!],
              accessType: TYPES[i % TYPES.length]
            })
          case "inherit":
            return post("/v2/organizations/folders/access/update", { organizationId: "org", folderIds: [folder], inheritFromParent: true })
          case "add":
            // Under an existing folder, or under one another caller of the round adds, which may not have run yet.
            return post("/v2/organizations/folders/add", {
              organizationId: "org",
              folders: [{ folderId: added(i), parentFolderId: i < 8 ? folder : added(i - 8), ...(i % 4 === 2 && { accessType: TYPES[i % TYPES.length] }) }]
            })
          case "move":
            // Three documents at once, in this caller's order; none: back to the root.
            return post("/v1/organizations/documents/add", {
              organizationId: "org",
              ...(i % 10 !== 3 && { folderId: folder }),
              documents: inOrderOf(documents, i).slice(0, 3).map((documentId) => ({ documentId }))
            })
          case "move into new":
            return post("/v1/organizations/documents/add", { organizationId: "org", folderId: added(i - 4), documents: [{ documentId: documents[(i + 5) % documents.length] }] })
          case "new document":
            // Into the folder an add of the round names: made here at the top level when this comes first (that add then finds it).
            return post("/v2/organizations/documents/add", { organizationId: "org", folderId: added(i - 5), createFolder: true, documents: [{ documentId: `new${round}x${i}` }] })
        }
      })
      for (const [i, answer] of answers.entries()) {
        const kind = kindOf(i)
        if (kind === "move into new" && answer.status === 404) {
          expect(answer.body.error.message).toBe(`Folder ${added(i - 4)} does not exist in organization org.`)
          continue
        }
        expect(answer.status, `${kind} ${i}: ${answer.text}`).toBe(200)
        if (kind === "add") {
          const item = answer.body.result.data[added(i)]
          if (!item.success) expect([`Parent folder ${added(i - 8)} does not exist.`, "Folder already exists."]).toContain(item.message)
        }
        if (kind === "type" || kind === "inherit") {
          for (const item of Object.values(answer.body.result.data)) expect(item).toMatchObject({ success: true })
        }
      }

      // The tree as stored: each folder's type is its own, or its parent's when it follows it (public at the root).
      const stored: ReadonlyArray<{ folderId: string; parentFolderId: string; ancestors: Array<string>; accessType: AccessType; inheritAccessFromParent: boolean }> =
        (await first!.ok("/v2/organizations/folders/get", { organizationId: "org" })).data
      const byId = new Map(stored.map((folder) => [folder.folderId, folder]))
      const chainType = (folderId: string): AccessType => {
        const folder = byId.get(folderId)!
        if (!folder.inheritAccessFromParent) return folder.accessType
        return folder.parentFolderId === "root" ? "public" : chainType(folder.parentFolderId)
      }
      for (const folder of stored) {
        expect(folder.accessType, `folder ${folder.folderId}`).toBe(chainType(folder.folderId))
        expect(folder.ancestors).toEqual(folder.parentFolderId === "root" ? ["root"] : [...byId.get(folder.parentFolderId)!.ancestors, folder.parentFolderId])
      }
      // Where each document is now, and so the type its folder chain gives it (the key's default, public, at the root).
      const folderOf = new Map<string, string>()
      for (const folder of stored) {
        const listed = await first!.ok("/v2/organizations/documents/get", { organizationId: "org", folderId: folder.folderId })
        for (const document of listed.data) folderOf.set(document.id, folder.folderId)
      }
      const expectedType = (documentId: string): AccessType => folderOf.has(documentId) ? chainType(folderOf.get(documentId)!) : "public"

      everyDocument.push(...range(50).filter((i) => kindOf(i) === "new document").map((i) => `new${round}x${i}`))
      for (const calls of cluster.every) {
        const now = await answered(calls, stored.map((folder) => folder.folderId), everyDocument)
        for (const folder of stored) expect(now.folders[folder.folderId], `folder ${folder.folderId}`).toBe(chainType(folder.folderId))
        for (const documentId of everyDocument) {
          expect(now.documents[documentId], `document ${documentId}`).toBe(expectedType(documentId))
          // The outsider has no grant and is no member: only a public document is open to it.
          expect(now.roles[documentId], `document ${documentId}`).toBe(expectedType(documentId) === "public" ? "editor" : null)
        }
      }
    }
  }
}

/**
 * Each storm is fifty real requests that take turns on their locks: correctness is what is asserted
 * (and the deadlocks PostgreSQL broke, counted below), not speed, so a machine running the whole suite
 * beside them gets more than the suite's 30 s.
 */
const STORM_TIMEOUT_MILLIS = 120_000

describe("access writes under load", { timeout: STORM_TIMEOUT_MILLIS }, () => {
  for (const backend of concurrentBackends) {
    describe(backend.name, () => {
      let started: Started
      beforeAll(async () => {
        started = await backend.start()
      })
      afterAll(() => started?.stop())

      for (const [title, storm] of Object.entries(storms)) it(title, async () => storm(await clusterOf([started])))
    })
  }
})

describe.sequential("two servers on one PostgreSQL database", { timeout: STORM_TIMEOUT_MILLIS }, () => {
  let servers: TwoServers
  beforeAll(async () => {
    servers = await twoPostgresServersOverHttp()
  })
  afterAll(() => servers?.stop())

  // The callers take turns across the servers, and both are asked afterwards. One user's grants (written under its lock) add nothing here.
  for (const [title, storm] of Object.entries(storms).filter(([title]) => !title.includes("one user") && !title.includes("same two grants"))) {
    it(title, async () => storm(await clusterOf([servers.one, servers.two])))
  }

  it("PostgreSQL broke no deadlock in these storms", async () => {
    expect(await servers.deadlocks()).toBe(0)
  })
})
