/**
 * Isolation between API keys, for every operation on every storage. Key A stores data of every
 * kind under ids anyone might guess (org1, doc1, u1, t1, …), with a marker in every text, and
 * keeps its page tokens, iterators, cursors, job ids, endpoint and message ids. Key B then calls
 * every operation with bodies derived from its input schema and aimed at A: every id-like field
 * set to A's. No answer to B may carry A's marker or secret, and A's own reads answer exactly as
 * before.
 */
import { expect, it } from "vitest"
import { forEachBackend, postgresOverHttp } from "../../../../test-support/backends.js"
import { operations } from "../../src/operations.js"
import { schemaSamples } from "./schemaSamples.js"

const MARK = "ISOLATED-A-7d1e"
const SAMPLES = 6

forEachBackend("isolation between API keys", (ctx) => {
  it("key B, aiming every operation at key A's ids, tokens and jobs, never sees or changes A's data", async () => {
    const { client, workspace } = ctx()
    const a = await workspace()
    const b = await workspace()
    const asA = async (path: string, data: unknown) => {
      const answer = await client.post(path, data, a.headers)
      expect(answer.status, `${path}: ${answer.text}`).toBeLessThan(300)
      return answer.body.result
    }

    // A's data, every text marked.
    const org = { organizationId: "org1", documentId: "doc1" }
    await asA("/v2/organizations/add", { organizations: [{ organizationId: "org1", organizationName: `${MARK} org` }, { organizationId: "org2", organizationName: `${MARK} org2` }] })
    await asA("/v1/organizations/documents/add", { organizationId: "org1", documents: [{ documentId: "doc1", documentName: `${MARK} doc` }, { documentId: "doc2", documentName: `${MARK} doc2` }] })
    await asA("/v2/organizations/folders/add", { organizationId: "org1", folders: [{ folderId: "f1", folderName: `${MARK} folder` }] })
    await asA("/v2/users/add", { ...org, users: [{ userId: "u1", name: `${MARK} user`, email: "u1@a.example.com" }] })
    await asA("/v2/users/add", { organizationId: "org1", users: [{ userId: "u1", name: `${MARK} user`, email: "u1@a.example.com" }, { userId: "u2", name: `${MARK} user2` }] })
    await asA("/v2/organizations/usergroups/add", { organizationId: "org1", organizationUserGroups: [{ groupId: "g1", groupName: `${MARK} group` }] })
    await asA("/v2/organizations/usergroups/users/add", { organizationId: "org1", organizationUserGroupId: "g1", userIds: ["u1"] })
    await asA("/v2/presence/add", { ...org, users: [{ userId: "u1", name: `${MARK} present` }] })
    await asA("/v2/notifications/config/set", { organizationId: "org1", documentIds: ["doc1"], userIds: ["u1"], config: { inbox: "NONE" } })
    await asA("/v2/activities/add", { ...org, activities: [{ id: "act1", featureType: "comment", actionType: "added", actionUser: { userId: "u1", name: MARK } }, { id: "act2", featureType: "comment", actionType: "added", actionUser: { userId: "u1" } }] })
    await asA("/v2/commentannotations/add", { ...org, commentAnnotations: [
      { annotationId: "t1", commentData: [{ commentId: 1, commentText: `${MARK} comment`, from: { userId: "u1" } }] },
      { annotationId: "t2", commentData: [{ commentId: 1, commentText: `${MARK} comment2`, from: { userId: "u1" } }] }
    ] })
    await asA("/v2/commentannotations/comments/reactions/add", { ...org, annotationId: "t1", commentId: 1, reaction: { reactionId: "HEART" }, from: { userId: "u1" } })
    await asA("/v2/memory/judgments/add", { judgments: [{ id: "j1", ...org, content: `${MARK} content`, reasoning: MARK, decision: "approved", judgeType: "human", reviewerId: "u1" }] })
    await asA("/v2/agents/execution/record", { id: "e1", agentId: "agent1", agentName: MARK, agentVersion: 1, status: "passed", message: MARK, startedAt: 1, completedAt: 2, ...org })
    await asA("/v2/agents/execution/record", { id: "e2", agentId: "agent1", agentName: MARK, agentVersion: 1, status: "passed", message: MARK, startedAt: 3, completedAt: 4, ...org })
    await asA("/v2/workspace/domains/add", { domains: ["a-only.example.com"] })
    await asA("/v2/workspace/permissionproviderconfig/update", { usePermissionProvider: true, permissionProviderConfig: { permissionProviderUrl: "https://a-only.example.com/permissions", authToken: MARK } })
    await asA("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
    const endpoint = (await asA("/v2/workspace/advancedwebhook/endpoints/create", { url: "https://a-only.example.com/hooks", description: MARK })).data
    await asA("/v2/workspace/advancedwebhook/endpoints/create", { url: "https://a-only.example.com/hooks2", description: MARK })
    const { secret } = (await asA("/v2/workspace/advancedwebhook/endpoints/secret/get", { endpointId: endpoint.id })).data
    const message = (await asA("/v2/workspace/advancedwebhook/messages/create", { eventType: "a.event", payload: { note: MARK } })).data
    await asA("/v2/workspace/advancedwebhook/messages/create", { eventType: "a.event", payload: { note: MARK } })
    const { jobId } = (await asA("/v2/users/data/delete", { userIds: ["u2"] })).data
    const { migrationId } = (await asA("/v2/organizations/documents/migrate", { organizationId: "org1", documentId: "doc2", newDocumentId: "doc3" })).data
    // A's tokens of every kind: a page of one where there are two.
    const tokens = {
      pageToken: (await asA("/v2/organizations/get", { pageSize: 1 })).nextPageToken as string,
      activities: (await asA("/v2/activities/get", { organizationId: "org1", pageSize: 1 })).pageToken as string,
      threads: (await asA("/v2/commentannotations/get", { organizationId: "org1", pageSize: 1 })).nextPageToken as string,
      iterator: (await asA("/v2/workspace/advancedwebhook/endpoints/get", { limit: 1 })).data.iterator as string,
      messages: (await asA("/v2/workspace/advancedwebhook/messages/get", { limit: 1 })).data.iterator as string,
      cursor: (await asA("/v2/agents/execution/list", { pageSize: 1 })).nextCursor as string
    }
    for (const [name, token] of Object.entries(tokens)) expect(token, name).toEqual(expect.any(String))

    // A's view of its data, read the same way before and after B (tokens left out: they are new each time).
    const reads: ReadonlyArray<readonly [string, unknown]> = [
      ["/v2/organizations/get", {}],
      ["/v2/organizations/documents/get", { organizationId: "org1" }],
      ["/v2/organizations/folders/get", { organizationId: "org1" }],
      ["/v2/users/get", { organizationId: "org1" }],
      ["/v2/users/get", org],
      ["/v2/notifications/config/get", { organizationId: "org1", userId: "u1", documentIds: ["doc1"] }],
      ["/v2/activities/get", { organizationId: "org1" }],
      ["/v2/commentannotations/get", { organizationId: "org1" }],
      ["/v2/commentannotations/count/get", { organizationId: "org1", documentIds: ["doc1"], userId: "u1" }],
      ["/v2/memory/judgments/query", {}],
      ["/v2/agents/execution/list", {}],
      ["/v2/workspace/domains/get", {}],
      ["/v2/workspace/permissionproviderconfig/get", {}],
      ["/v2/workspace/advancedwebhookconfig/get", {}],
      ["/v2/workspace/advancedwebhook/endpoints/get", {}],
      ["/v2/workspace/advancedwebhook/endpoints/secret/get", { endpointId: endpoint.id }],
      ["/v2/workspace/advancedwebhook/messages/get", {}],
      ["/v2/users/data/delete/status", { jobId }],
      ["/v2/organizations/documents/migrate/status", { organizationId: "org1", migrationId }]
    ]
    const snapshot = async (headers = a.headers) => {
      const out: Array<string> = []
      for (const [path, data] of reads) {
        const answer = await client.post(path, data, headers)
        out.push(`${path} ${answer.status} ${JSON.stringify(answer.body, (key, value) =>
          ["pageToken", "nextPageToken", "iterator", "prevIterator", "nextCursor"].includes(key) ? "<token>" : value)}`)
      }
      return out
    }
    const before = await snapshot()
    expect(before.join("\n")).toContain(MARK)

    // B aims every operation at A: every id-like field of a body derived from its schema becomes A's.
    const aimed: Record<string, unknown> = {
      organizationId: "org1", documentId: "doc1", newDocumentId: "doc2", folderId: "f1", parentFolderId: "f1", userId: "u1",
      annotationId: "t1", commentId: 1, groupId: "g1", organizationUserGroupId: "g1", endpointId: endpoint.id, messageId: message.messageId,
      jobId, migrationId, executionId: "e1", agentId: "agent1", id: "act1", apiKey: a.apiKey, workspaceId: a.workspaceId,
      pageToken: tokens.pageToken, iterator: tokens.iterator, prevIterator: tokens.iterator, cursor: tokens.cursor, locationId: "t1"
    }
    const aimedList: Record<string, unknown> = {
      organizationIds: ["org1", "org2"], documentIds: ["doc1", "doc2"], userIds: ["u1", "u2"], annotationIds: ["t1", "t2"], commentIds: [1],
      folderIds: ["f1"], groupIds: ["g1"], endpointIds: [endpoint.id], messageIds: [message.messageId]
    }
    const aim = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(aim)
      if (typeof value !== "object" || value === null) return value
      const out: Record<string, unknown> = {}
      for (const [key, inner] of Object.entries(value)) {
        out[key] = key in aimed && typeof inner === typeof aimed[key] ? aimed[key]
          : key in aimedList && Array.isArray(inner) ? aimedList[key]
          : aim(inner)
      }
      return out
    }
    const pageTokens = [tokens.pageToken, tokens.activities, tokens.threads]
    let calls = 0
    let carriedOut = 0
    for (const [index, operation] of operations.entries()) {
      const samples = schemaSamples(operation.input, SAMPLES, 7 + index)
      const bodies = [...samples.map(aim), ...pageTokens.map((pageToken) => ({ organizationId: "org1", pageToken })), aimed]
      const headers = operation.auth === "workspace" ? b.workspaceHeaders : b.headers
      for (const data of bodies) {
        const answer = await client.post(operation.paths[0]!, data, headers)
        calls++
        if (answer.status < 300) carriedOut++
        const where = `${operation.name} ${JSON.stringify(data).slice(0, 200)}: ${answer.text.slice(0, 300)}`
        expect(answer.text.includes(MARK), where).toBe(false)
        expect(answer.text.includes(secret), where).toBe(false)
        expect(answer.text.includes("a-only.example.com"), where).toBe(false)
      }
    }
    expect(calls).toBeGreaterThan(operations.length * 4)
    // Aimed bodies reach the operations: many are carried out (on B's own records of those ids).
    expect(carriedOut).toBeGreaterThan(calls / 5)
    expect(await snapshot()).toEqual(before)
    // Nor did any of A's data end up in B's records (a write that merged in A's row would show here).
    expect((await snapshot(b.headers)).join("\n")).not.toContain(MARK)
  }, 120_000)
}, undefined, [postgresOverHttp])
