// The largest allowed call of each heavy kind (issue 21), for the test that /healthz stays fast
// beside them (packages/core/test/protocol/batch-latency.test.ts) and for bench/batches.mjs.
// Each size is read from the operation's schema through `capOf(path, list)`, so a cap that
// changes changes what both send.

const range = (n, f) => Array.from({ length: n }, (_, i) => f(i))
const user = (userId) => ({ userId, name: `User ${userId}`, email: `${userId}@example.com` })
const users = (r, n) => range(n, (i) => user(`${r}-u${i}`))
const comment = (i) => ({
  commentText: `Comment ${i}, mentioning a user`,
  from: user(`a${i % 7}`),
  triggerNotification: true,
  taggedUserContacts: [{ userId: `a${(i + 1) % 7}` }]
})
const activity = (r, i) => ({ id: `${r}-a${i}`, featureType: "comment", actionType: "comment.add", actionUser: user("a"), targetEntityId: `t${i}` })

/** What every kind acts in: organization "org" with group "group" and document "doc". */
export const prepareLargestBatches = async (post) => {
  await post("/v2/organizations/usergroups/add", { organizationId: "org", createOrganization: true, organizationUserGroups: [{ groupId: "group", groupName: "Group" }] })
  await post("/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "doc" }] })
}

export const largestBatches = (capOf) => {
  const cap = (path, list) => {
    const max = capOf(path, list)
    if (typeof max !== "number") throw new Error(`${path} declares no cap on ${list}`)
    return max
  }
  const usersCap = cap("/v2/users/add", "users")
  const activitiesCap = cap("/v2/activities/add", "activities")
  const commentsCap = cap("/v2/commentannotations/add", "comments in commentAnnotations[].commentData")
  const preferencesCap = cap("/v2/notifications/config/set", "userIds × documentIds")
  return [
    { name: "organizations/add", path: "/v2/organizations/add", data: (r) => ({ organizations: range(cap("/v2/organizations/add", "organizations"), (i) => ({ organizationId: `${r}-o${i}`, plan: "team" })) }) },
    ...["v1", "v2"].map((version) => ({
      name: `${version} documents/add`,
      path: `/${version}/organizations/documents/add`,
      data: (r) => ({ organizationId: "org", documents: range(cap(`/${version}/organizations/documents/add`, "documents"), (i) => ({ documentId: `${r}-${version}-d${i}`, documentName: `Document ${i}` })) })
    })),
    { name: "users/add", path: "/v2/users/add", data: (r) => ({ organizationId: "org", users: users(r, usersCap) }) },
    {
      name: "v2 users/update",
      path: "/v2/users/update",
      setup: (post, r) => post("/v2/users/add", { organizationId: "org", users: users(r, usersCap) }),
      data: (r) => ({ organizationId: "org", users: users(r, cap("/v2/users/update", "users")).map((u) => ({ ...u, name: "Renamed", accessRole: "viewer" })) })
    },
    {
      name: "users/delete",
      path: "/v2/users/delete",
      setup: async (post, r) => {
        await post("/v2/users/add", { organizationId: "org", users: users(r, usersCap) })
        await post("/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "group", userIds: users(r, usersCap).map((u) => u.userId) })
      },
      data: (r) => ({ organizationId: "org", userIds: users(r, cap("/v2/users/delete", "userIds")).map((u) => u.userId) })
    },
    {
      name: "usergroups/add",
      path: "/v2/organizations/usergroups/add",
      data: (r) => ({ organizationId: "org", organizationUserGroups: range(cap("/v2/organizations/usergroups/add", "organizationUserGroups"), (i) => ({ groupId: `${r}-g${i}`, groupName: `Group ${i}` })) })
    },
    {
      name: "usergroups/users/add",
      path: "/v2/organizations/usergroups/users/add",
      data: (r) => ({ organizationId: "org", organizationUserGroupId: "group", userIds: range(cap("/v2/organizations/usergroups/users/add", "userIds"), (i) => `${r}-m${i}`) })
    },
    {
      name: "presence/update",
      path: "/v2/presence/update",
      data: (r) => ({ organizationId: "org", documentId: `${r}-doc`, users: users(r, cap("/v2/presence/update", "users")).map((u) => ({ ...u, status: "away" })) })
    },
    {
      name: "notifications/config/set",
      path: "/v2/notifications/config/set",
      data: (r) => ({
        organizationId: "org",
        userIds: range(100, (i) => `${r}-n${i}`),
        documentIds: range(preferencesCap / 100, (i) => `${r}-nd${i}`),
        config: { inbox: "ALL", email: "MINE" }
      })
    },
    {
      name: "folders/add (each in the one before)",
      path: "/v2/organizations/folders/add",
      data: (r) => ({ organizationId: "org", folders: range(cap("/v2/organizations/folders/add", "folders"), (i) => ({ folderId: `${r}-f${i}`, ...(i > 0 && { parentFolderId: `${r}-f${i - 1}` }) })) })
    },
    {
      // The first folder's change reaches the 99 below it, one level at a time; each later one is a folder of its own.
      name: "folders/access/update (a chain of 100 that follows its top)",
      path: "/v2/organizations/folders/access/update",
      setup: (post, r) =>
        post("/v2/organizations/folders/add", { organizationId: "org", folders: range(cap("/v2/organizations/folders/add", "folders"), (i) => ({ folderId: `${r}-x${i}`, ...(i > 0 && { parentFolderId: `${r}-x${i - 1}` }) })) }),
      data: (r) => ({ organizationId: "org", folderIds: range(cap("/v2/organizations/folders/access/update", "folderIds"), (i) => `${r}-x${i}`), accessType: "restricted" })
    },
    { name: "activities/add", path: "/v2/activities/add", data: (r) => ({ organizationId: "org", documentId: "doc", activities: range(activitiesCap, (i) => activity(r, i)) }) },
    {
      name: "activities/update",
      path: "/v2/activities/update",
      setup: (post, r) => post("/v2/activities/add", { organizationId: "org", documentId: "doc", activities: range(activitiesCap, (i) => activity(r, i)) }),
      data: (r) => ({ organizationId: "org", activities: range(cap("/v2/activities/update", "activities"), (i) => ({ id: `${r}-a${i}`, displayMessageTemplate: "{{user.name}} edited" })) })
    },
    {
      name: "commentannotations/add, all comments in one thread",
      path: "/v2/commentannotations/add",
      data: (r) => ({ organizationId: "org", documentId: "doc", commentAnnotations: [{ annotationId: `${r}-t`, commentData: range(commentsCap, comment) }] })
    },
    {
      name: "commentannotations/add, a comment per thread",
      path: "/v2/commentannotations/add",
      data: (r) => ({
        organizationId: "org",
        documentId: "doc",
        commentAnnotations: range(Math.min(cap("/v2/commentannotations/add", "commentAnnotations"), commentsCap), (t) => ({ annotationId: `${r}-t${t}`, commentData: [comment(t)] }))
      })
    },
    {
      name: "comments/add",
      path: "/v2/commentannotations/comments/add",
      setup: (post, r) => post("/v2/commentannotations/add", { organizationId: "org", documentId: "doc", commentAnnotations: [{ annotationId: `${r}-c`, commentData: [comment(0)] }] }),
      data: (r) => ({
        organizationId: "org",
        documentId: "doc",
        annotationId: `${r}-c`,
        commentData: range(cap("/v2/commentannotations/comments/add", "commentData"), comment).map(({ triggerNotification: _, ...c }) => c)
      })
    },
    {
      name: "auth/permissions/get, every user on every document",
      path: "/v2/auth/permissions/get",
      setup: (post, r) => post("/v1/organizations/documents/add", { organizationId: "org", documents: range(30, (i) => ({ documentId: `${r}-p${i}` })) }),
      data: (r) => {
        const checks = cap("/v2/auth/permissions/get", "userIds × (folderIds + documentIds)")
        return { organizationId: "org", userIds: range(checks / 30, (i) => `${r}-pu${i}`), documentIds: range(30, (i) => `${r}-p${i}`) }
      }
    },
    {
      name: "judgments/add",
      path: "/v2/memory/judgments/add",
      data: (r) => ({
        judgments: range(cap("/v2/memory/judgments/add", "judgments"), (i) => ({
          id: `${r}-j${i}`,
          organizationId: "org",
          content: `Item ${i}: a change to review`,
          reasoning: `Reason ${i % 5}`,
          decision: i % 2 ? "approved" : "rejected",
          judgeType: "human"
        }))
      })
    }
  ]
}

/** `capOf` over an operation table: the cap `listCaps` finds for `list` (a list's path, or what a cap together counts) on `path`. */
export const capsOf = (operations, listCaps) => (path, list) => {
  const operation = operations.find((candidate) => candidate.paths.includes(path))
  if (operation === undefined) throw new Error(`no operation answers ${path}`)
  // Lists only: a cap on a value's size as JSON (`bytes`) is no batch.
  const found = listCaps(operation.input).find((cap) => !("bytes" in cap) && ("counted" in cap ? cap.counted : cap.path) === list)
  return found === undefined ? undefined : "counted" in found ? found.max : found.maxItems
}
