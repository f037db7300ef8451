/**
 * No allowed request holds the server (issue 21). SQLite runs synchronously in the server's one
 * thread, so while one call works no other is answered: each heavy kind of call is sent at the
 * largest its schema allows (the caps: docs/protocol.md, "Limits"), to SQLite behind a real
 * node:http server, and GET /healthz is asked again and again meanwhile, the first probe sent
 * with the batch. The worst probe must answer within 200 ms, the bound; at the caps a
 * batch takes about 20 to 60 ms of CPU here (docs/benchmarks.md, "Largest batches"). A machine busy
 * with other work can stretch one round, so a kind gets three rounds and passes when one of them
 * does; a cap that lets a call work 200 ms fails all three. bench/batches.mjs measures the same.
 */
import { JobRunner } from "@atrium/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, type Started } from "../../../../test-support/backends.js"
import { type Receiver, startReceiver } from "../../../../test-support/receiver.js"
import { MAX_ACTIVITIES_PER_CALL } from "../../src/activities/ActivitySchemas.js"
import { MAX_BATCH, MAX_COMMENTS_PER_CALL } from "../../src/comments/CommentSchemas.js"
import { MAX_DOCUMENTS_PER_CALL } from "../../src/documents/DocumentSchemas.js"
import { MAX_FOLDERS_PER_CALL } from "../../src/folders/FolderSchemas.js"
import { MAX_JUDGMENTS_PER_CALL } from "../../src/judgments/JudgmentSchemas.js"
import { MAX_PREFERENCES_PER_CALL } from "../../src/notifications/NotificationPreferenceSchemas.js"
import { MAX_ORGANIZATIONS_PER_CALL } from "../../src/organizations/OrganizationSchemas.js"
import { MAX_PRESENCE_USERS_PER_CALL } from "../../src/presence/PresenceSchemas.js"
import type { TestCredentials } from "../../src/testing/index.js"
import { MAX_GROUP_ENTRIES_PER_CALL } from "../../src/users/UserGroupSchemas.js"
import { MAX_USERS_PER_CALL } from "../../src/users/UserSchemas.js"

const BOUND_MILLIS = 200
const ROUNDS = 3

const range = <A>(n: number, f: (i: number) => A) => Array.from({ length: n }, (_, i) => f(i))
const user = (userId: string) => ({ userId, name: `User ${userId}`, email: `${userId}@example.com` })
const comment = (i: number) => ({
  commentText: `Comment ${i}, mentioning a user`,
  from: user(`a${i % 7}`),
  triggerNotification: true,
  taggedUserContacts: [{ userId: `a${(i + 1) % 7}` }]
})

interface Kind {
  readonly name: string
  readonly path: string
  /** What the call acts on, made before the measure; `r` keeps each round's ids apart. */
  readonly setup?: (post: Post, r: string) => Promise<unknown>
  readonly data: (r: string) => unknown
}
type Post = (path: string, data: unknown) => Promise<unknown>

const users = (r: string, n: number) => range(n, (i) => user(`${r}-u${i}`))

const kinds: ReadonlyArray<Kind> = [
  { name: "organizations/add", path: "/v2/organizations/add", data: (r) => ({ organizations: range(MAX_ORGANIZATIONS_PER_CALL, (i) => ({ organizationId: `${r}-o${i}`, plan: "team" })) }) },
  ...["v1", "v2"].map((version): Kind => ({
    name: `${version} documents/add`,
    path: `/${version}/organizations/documents/add`,
    data: (r) => ({ organizationId: "org", documents: range(MAX_DOCUMENTS_PER_CALL, (i) => ({ documentId: `${r}-${version}-d${i}`, documentName: `Document ${i}` })) })
  })),
  { name: "users/add", path: "/v2/users/add", data: (r) => ({ organizationId: "org", users: users(r, MAX_USERS_PER_CALL) }) },
  {
    name: "v2 users/update",
    path: "/v2/users/update",
    setup: (post, r) => post("/v2/users/add", { organizationId: "org", users: users(r, MAX_USERS_PER_CALL) }),
    data: (r) => ({ organizationId: "org", users: users(r, MAX_USERS_PER_CALL).map((u) => ({ ...u, name: "Renamed", accessRole: "viewer" })) })
  },
  {
    name: "users/delete",
    path: "/v2/users/delete",
    setup: async (post, r) => {
      await post("/v2/users/add", { organizationId: "org", users: users(r, MAX_USERS_PER_CALL) })
      await post("/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "group", userIds: users(r, MAX_USERS_PER_CALL).map((u) => u.userId) })
    },
    data: (r) => ({ organizationId: "org", userIds: users(r, MAX_USERS_PER_CALL).map((u) => u.userId) })
  },
  {
    name: "usergroups/add",
    path: "/v2/organizations/usergroups/add",
    data: (r) => ({ organizationId: "org", organizationUserGroups: range(MAX_GROUP_ENTRIES_PER_CALL, (i) => ({ groupId: `${r}-g${i}`, groupName: `Group ${i}` })) })
  },
  {
    name: "usergroups/users/add",
    path: "/v2/organizations/usergroups/users/add",
    data: (r) => ({ organizationId: "org", organizationUserGroupId: "group", userIds: range(MAX_GROUP_ENTRIES_PER_CALL, (i) => `${r}-m${i}`) })
  },
  {
    name: "presence/update",
    path: "/v2/presence/update",
    data: (r) => ({ organizationId: "org", documentId: `${r}-doc`, users: users(r, MAX_PRESENCE_USERS_PER_CALL).map((u) => ({ ...u, status: "away" })) })
  },
  {
    name: "notifications/config/set",
    path: "/v2/notifications/config/set",
    data: (r) => ({
      organizationId: "org",
      userIds: range(100, (i) => `${r}-n${i}`),
      documentIds: range(MAX_PREFERENCES_PER_CALL / 100, (i) => `${r}-nd${i}`),
      config: { inbox: "ALL", email: "MINE" }
    })
  },
  {
    name: "folders/add (each in the one before)",
    path: "/v2/organizations/folders/add",
    data: (r) => ({ organizationId: "org", folders: range(MAX_FOLDERS_PER_CALL, (i) => ({ folderId: `${r}-f${i}`, ...(i > 0 && { parentFolderId: `${r}-f${i - 1}` }) })) })
  },
  {
    name: "activities/add",
    path: "/v2/activities/add",
    data: (r) => ({
      organizationId: "org",
      documentId: "doc",
      activities: range(MAX_ACTIVITIES_PER_CALL, (i) => ({ id: `${r}-a${i}`, featureType: "comment", actionType: "comment.add", actionUser: user("a"), targetEntityId: `t${i}` }))
    })
  },
  {
    name: "activities/update",
    path: "/v2/activities/update",
    setup: (post, r) =>
      post("/v2/activities/add", {
        organizationId: "org",
        documentId: "doc",
        activities: range(MAX_ACTIVITIES_PER_CALL, (i) => ({ id: `${r}-a${i}`, featureType: "comment", actionType: "comment.add", actionUser: user("a"), targetEntityId: `t${i}` }))
      }),
    data: (r) => ({ organizationId: "org", activities: range(MAX_ACTIVITIES_PER_CALL, (i) => ({ id: `${r}-a${i}`, displayMessageTemplate: "{{user.name}} edited" })) })
  },
  {
    name: "commentannotations/add, all comments in one thread",
    path: "/v2/commentannotations/add",
    data: (r) => ({ organizationId: "org", documentId: "doc", commentAnnotations: [{ annotationId: `${r}-t`, commentData: range(MAX_COMMENTS_PER_CALL, comment) }] })
  },
  {
    name: "commentannotations/add, a comment per thread",
    path: "/v2/commentannotations/add",
    data: (r) => ({
      organizationId: "org",
      documentId: "doc",
      commentAnnotations: range(Math.min(MAX_BATCH, MAX_COMMENTS_PER_CALL), (t) => ({ annotationId: `${r}-t${t}`, commentData: [comment(t)] }))
    })
  },
  {
    name: "comments/add",
    path: "/v2/commentannotations/comments/add",
    setup: (post, r) => post("/v2/commentannotations/add", { organizationId: "org", documentId: "doc", commentAnnotations: [{ annotationId: `${r}-c`, commentData: [comment(0)] }] }),
    data: (r) => ({ organizationId: "org", documentId: "doc", annotationId: `${r}-c`, commentData: range(MAX_COMMENTS_PER_CALL, comment).map(({ triggerNotification: _, ...c }) => c) })
  },
  {
    name: "judgments/add",
    path: "/v2/memory/judgments/add",
    data: (r) => ({
      judgments: range(MAX_JUDGMENTS_PER_CALL, (i) => ({
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

describe("/healthz while the largest allowed batch of each heavy kind runs [sqlite over node-http]", () => {
  let started: Started
  let creds: TestCredentials
  let receiver: Receiver
  const post: Post = async (path, data) => {
    const answer = await started.client.post(path, data, creds.headers)
    if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${answer.text.slice(0, 300)}`)
    return answer.body
  }
  const probe = async () => {
    const t0 = performance.now()
    const answer = await started.client.raw({ method: "GET", path: "/healthz" })
    expect(answer.status).toBe(200)
    return performance.now() - t0
  }
  /** The worst /healthz probe while `running` runs, asked one at a time, the first at once. */
  const worstProbeWhile = async (running: Promise<unknown>) => {
    let settled = false
    const done = running.finally(() => (settled = true))
    let worst = 0
    do worst = Math.max(worst, await probe())
    while (!settled)
    await done
    return worst
  }
  /** Up to ROUNDS rounds: each round's worst probe, until one is within the bound. */
  const measure = async (round: (r: string) => Promise<unknown>, prepare?: (r: string) => Promise<unknown>) => {
    const worst: Array<number> = []
    for (let r = 0; r < ROUNDS && !worst.some((ms) => ms < BOUND_MILLIS); r++) {
      const tag = `r${r}${Math.random().toString(36).slice(2, 6)}`
      await prepare?.(tag)
      worst.push(await worstProbeWhile(round(tag)))
    }
    return worst
  }

  beforeAll(async () => {
    started = await backends.find((backend) => backend.name === "sqlite over node-http")!.start()
    creds = await started.workspace()
    // Advanced webhooks on, one endpoint taking every event: each change records its messages too.
    receiver = await startReceiver()
    await post("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
    await post("/v2/workspace/advancedwebhook/endpoints/create", { url: receiver.url })
    await post("/v2/organizations/usergroups/add", { organizationId: "org", createOrganization: true, organizationUserGroups: [{ groupId: "group", groupName: "Group" }] })
    await post("/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "doc" }] })
    // Warm: the first calls of a process compile its code.
    for (const [k, kind] of kinds.entries()) {
      await kind.setup?.(post, `warm${k}`)
      await post(kind.path, kind.data(`warm${k}`))
    }
  }, 120_000)
  afterAll(async () => {
    await started?.stop()
    await receiver?.close()
  })

  it(`a /healthz probe sent meanwhile is answered within ${BOUND_MILLIS} ms, whatever it waits behind`, async () => {
    const baseline = await measure(() => new Promise((resolve) => setTimeout(resolve, 100)))
    expect(baseline[0]).toBeLessThan(BOUND_MILLIS)
  })

  for (const kind of kinds) {
    it(`${kind.name}`, async () => {
      const worst = await measure((r) => post(kind.path, kind.data(r)), kind.setup && ((r) => kind.setup!(post, r)))
      expect(Math.min(...worst), `worst /healthz of each round: ${worst.map((ms) => ms.toFixed(0)).join(", ")} ms`).toBeLessThan(BOUND_MILLIS)
    }, 60_000)
  }

  it("the tasks of a deletion of 100 users in 100 organizations (1,000 tasks), run back to back", async () => {
    const worst = await measure(
      // The job's tasks only: the webhook deliveries the batches above left are not this test's.
      () => started.atrium.runtime.runPromise(JobRunner.runDue("latency-test")),
      (r) => post("/v2/users/data/delete", { userIds: range(100, (i) => `${r}-u${i}`), organizationIds: range(100, (i) => `${r}-o${i}`) })
    )
    expect(Math.min(...worst), `worst /healthz of each round: ${worst.map((ms) => ms.toFixed(0)).join(", ")} ms`).toBeLessThan(BOUND_MILLIS)
  }, 120_000)
})
