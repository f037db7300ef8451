/**
 * Real concurrent requests at one thing, over HTTP, on SQLite and PostgreSQL. PostgreSQL runs
 * transactions side by side: a read-modify-write must not lose another's change, a race for one
 * id must end in one winner and ALREADY_EXISTS (or the idempotent answer), never a 500, and
 * concurrent token resets must leave exactly one token. SQLite runs one write at a time and must
 * give the same answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Started } from "../../../../test-support/backends.js"
import { concurrentBackends, inOrderOf, statuses, together } from "../../../../test-support/concurrent.js"
import type { TestCredentials } from "../../src/testing/index.js"

describe("concurrent writes", () => {
  for (const backend of concurrentBackends) {
    describe(backend.name, () => {
      let started: Started
      const post = (creds: TestCredentials, path: string, data: unknown) => started.client.post(path, data, creds.headers)
      const ok = async (creds: TestCredentials, path: string, data: unknown) => {
        const answer = await post(creds, path, data)
        if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
        return answer.body.result
      }

      beforeAll(async () => {
        started = await backend.start()
      })
      afterAll(() => started?.stop())

      describe.sequential("read-modify-write keeps every change", () => {
        it("workspace/notificationconfig/update: 20 callers each adding a trigger keep all 20", async () => {
          const creds = await started.workspace()
          const answers = await together(20, (i) =>
            post(creds, "/v2/workspace/notificationconfig/update", { notificationServiceConfig: { triggers: { comment: { [`t${i}`]: true } } } }))
          expect(statuses(answers)).toEqual({ 200: 20 })
          const stored = await ok(creds, "/v2/workspace/notificationconfig/get", {})
          for (let i = 0; i < 20; i++) expect(stored.data.notificationServiceConfig.triggers.comment[`t${i}`]).toBe(true)
        })

        it("workspace/webhookconfig/update and activityconfig/update: 50 callers each setting a trigger keep all 50; 50 exports at once answer 200", async () => {
          const creds = await started.workspace()
          const url = "https://hooks.example.com/v1"
          const basic = await together(50, (i) =>
            post(creds, "/v2/workspace/webhookconfig/update", { webhookServiceConfig: { rawNotificationUrl: url, triggers: { [`t${i}`]: true } } }))
          expect(statuses(basic)).toEqual({ 200: 50 })
          const basicTriggers = (await ok(creds, "/v2/workspace/webhookconfig/get", {})).data.webhookServiceConfig.triggers
          for (let i = 0; i < 50; i++) expect(basicTriggers[`t${i}`]).toBe(true)
          const activity = await together(50, (i) =>
            post(creds, "/v2/workspace/activityconfig/update", { activityServiceConfig: { triggers: { comment: { [`t${i}`]: false } } } }))
          expect(statuses(activity)).toEqual({ 200: 50 })
          const activityTriggers = (await ok(creds, "/v2/workspace/activityconfig/get", {})).data.activityServiceConfig.triggers.comment
          for (let i = 0; i < 50; i++) expect(activityTriggers[`t${i}`]).toBe(false)
          await ok(creds, "/v2/activities/add", { organizationId: "org", documentId: "doc", activities: [{ featureType: "comment", actionType: "added", actionUser: { userId: "u" } }] })
          const exports = await together(50, () => post(creds, "/v2/users/data/get", { organizationId: "org", userId: "u" }))
          expect(statuses(exports)).toEqual({ 200: 50 })
          for (const answer of exports) expect(answer.body.result.data.activities).toHaveLength(1)
        })

        it("workspace/permissionproviderconfig/update: token-only updates racing an enable do not lose it", async () => {
          for (let round = 0; round < 3; round++) {
            const creds = await started.workspace()
            const answers = await together(10, (i) =>
              post(creds, "/v2/workspace/permissionproviderconfig/update", i === 5
                ? { usePermissionProvider: true }
                : { permissionProviderConfig: { authToken: `token-${i}` } }))
            expect(statuses(answers)).toEqual({ 200: 10 })
            expect((await ok(creds, "/v2/workspace/permissionproviderconfig/get", {})).data.usePermissionProvider).toBe(true)
          }
        })

        it("commentannotations/update: context, priority and assignee sent at once are all kept", async () => {
          for (let round = 0; round < 3; round++) {
            const creds = await started.workspace()
            await ok(creds, "/v2/commentannotations/add", {
              organizationId: "org",
              documentId: "doc",
              createOrganization: true,
              createDocument: true,
              commentAnnotations: [{ annotationId: "t", commentData: [{ commentText: "x", from: { userId: "alice" } }] }]
            })
            const update = (updatedData: Record<string, unknown>) =>
              post(creds, "/v2/commentannotations/update", { organizationId: "org", documentId: "doc", annotationIds: ["t"], updatedData })
            const answers = await Promise.all([
              update({ context: { section: "intro" } }),
              update({ priority: { id: "P1", name: "High" } }),
              update({ assignedTo: { userId: "bob" } })
            ])
            expect(statuses(answers)).toEqual({ 200: 3 })
            const [thread] = (await ok(creds, "/v2/commentannotations/get", { organizationId: "org", annotationIds: ["t"] })).data
            expect(thread).toMatchObject({ context: { section: "intro" }, priority: { id: "P1" }, assignedTo: { userId: "bob" } })
          }
        })

        it("organizations/add, users/update, activities/update: concurrent partial writes of one record merge", async () => {
          const creds = await started.workspace()
          await ok(creds, "/v2/organizations/add", { organizations: [{ organizationId: "org" }] })
          await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "doc" }] })
          await ok(creds, "/v2/users/add", { organizationId: "org", users: [{ userId: "u" }] })
          await ok(creds, "/v2/activities/add", {
            organizationId: "org",
            documentId: "doc",
            activities: [{ id: "a", featureType: "custom", actionType: "made", actionUser: { userId: "u" }, targetEntityId: "e" }]
          })
          // Each of ten callers adds its own organization key and a user's name or email; activities take whole fields, three of them.
          const activityFields = [{ entityData: { x: 1 } }, { displayMessageTemplate: "made it" }, { actionIcon: "star" }]
          const answers = await together(10, (i) => Promise.all([
            post(creds, "/v2/organizations/add", { organizations: [{ organizationId: "org", [`k${i}`]: i }] }),
            post(creds, "/v2/users/update", { organizationId: "org", users: [{ userId: "u", ...(i % 2 === 0 ? { name: `Ann ${i}` } : { email: `ann${i}@example.com` }) }] }),
            ...(i < activityFields.length ? [post(creds, "/v2/activities/update", { organizationId: "org", activities: [{ id: "a", ...activityFields[i] }] })] : [])
          ]))
          expect(statuses(answers.flat())).toEqual({ 200: 23 })
          const organization = (await ok(creds, "/v2/organizations/get", { organizationIds: ["org"] })).data[0]
          const user = (await ok(creds, "/v2/users/get", { organizationId: "org", userIds: ["u"] })).data[0]
          for (let i = 0; i < 10; i++) expect(organization[`k${i}`] ?? organization.metadata?.[`k${i}`]).toBe(i)
          expect(user).toMatchObject({ name: expect.stringMatching(/^Ann \d$/), email: expect.stringMatching(/^ann\d@example\.com$/) })
          const [activity] = (await ok(creds, "/v2/activities/get", { organizationId: "org", activityIds: ["a"] })).data
          expect(activity).toMatchObject({ entityData: { x: 1 }, displayMessageTemplate: "made it", actionIcon: "star" })
        })

        it("activities/update: 50 callers updating the same activities in other orders, each all of them, leave them alike", async () => {
          const creds = await started.workspace()
          const ids = Array.from({ length: 8 }, (_, i) => `a${i}`)
          await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "doc" }] })
          await ok(creds, "/v2/activities/add", {
            organizationId: "org",
            documentId: "doc",
            activities: ids.map((id) => ({ id, featureType: "custom", actionType: "made", actionUser: { userId: "u" }, targetEntityId: "e" }))
          })
          // Each holds the activities it updated until it commits: naming them in other orders must not make callers wait for each other.
          const answers = await together(50, (i) =>
            post(creds, "/v2/activities/update", { organizationId: "org", activities: inOrderOf(ids, i).map((id) => ({ id, entityData: { by: i } })) }))
          expect(statuses(answers)).toEqual({ 200: 50 })
          const stored = (await ok(creds, "/v2/activities/get", { organizationId: "org", activityIds: ids })).data
          expect(stored).toHaveLength(8)
          expect(new Set(stored.map((activity: { entityData: { by: number } }) => activity.entityData.by)).size).toBe(1)
        })

        it("documents/update, documents/move, folders/update, comments and deletes from 50 callers on one organization: no 500, and the tree stays whole", async () => {
          const creds = await started.workspace()
          const folders = Array.from({ length: 5 }, (_, i) => `f${i}`)
          const documents = Array.from({ length: 10 }, (_, i) => `d${i}`)
          await ok(creds, "/v2/organizations/add", { organizations: [{ organizationId: "org" }] })
          await ok(creds, "/v2/organizations/folders/add", { organizationId: "org", folders: folders.map((folderId) => ({ folderId, folderName: folderId })) })
          await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: documents.map((documentId) => ({ documentId })) })
          for (const documentId of documents) {
            await ok(creds, "/v2/commentannotations/add", {
              organizationId: "org",
              documentId,
              commentAnnotations: [{ annotationId: `t-${documentId}`, commentData: [{ commentText: "root", from: { userId: "alice" } }] }]
            })
          }
          const answers = await together(50, (i) => {
            const some = inOrderOf(documents, i).slice(0, 3)
            switch (i % 5) {
              case 0:
                return post(creds, "/v1/organizations/documents/update", { organizationId: "org", documents: some.map((documentId) => ({ documentId, documentName: `by ${i}` })) })
              case 1:
                return post(creds, "/v2/organizations/documents/move", { organizationId: "org", documentIds: some, folderId: folders[i % 5]! })
              case 2:
                // Folders moving under each other at once: some would make a cycle, and fail their item.
                return post(creds, "/v2/organizations/folders/update", { organizationId: "org", folders: [{ folderId: folders[i % 5]!, parentFolderId: folders[(i + 1) % 5]! }] })
              case 3:
                return post(creds, "/v2/commentannotations/comments/add", { organizationId: "org", documentId: documents[i % 10]!, annotationId: `t-${documents[i % 10]!}`, commentData: [{ commentText: `reply ${i}`, from: { userId: "bob" } }] })
              default:
                return post(creds, "/v1/organizations/documents/delete", { organizationId: "org", documentIds: [documents[i % 10]!] })
            }
          })
          // A move may name a document a delete took first (NOT_FOUND, nothing moved); a comment on one starts it anew.
          for (const answer of answers) expect([200, 404], answer.text).toContain(answer.status)
          expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(40)
          // Every folder's ancestors are its parent's and the parent, up to the root: no cycle, no stale chain.
          const tree = (await ok(creds, "/v2/organizations/folders/get", { organizationId: "org" })).data as ReadonlyArray<{ folderId: string; parentFolderId: string; ancestors: ReadonlyArray<string> }>
          const byId = new Map(tree.map((folder) => [folder.folderId, folder]))
          for (const folder of tree) {
            const parent = byId.get(folder.parentFolderId)
            expect(folder.ancestors, folder.folderId).toEqual(parent === undefined ? ["root"] : [...parent.ancestors, parent.folderId])
            expect(folder.ancestors).not.toContain(folder.folderId)
          }
          expect(tree.map((folder) => folder.folderId).sort()).toEqual(folders)
        })

        it("notifications/config/set: channels set at once for one user are all kept", async () => {
          const creds = await started.workspace()
          const users = Array.from({ length: 20 }, (_, i) => `u${i}`)
          const set = (userId: string, config: Record<string, string>) =>
            post(creds, "/v2/notifications/config/set", { organizationId: "org", userIds: [userId], documentIds: ["doc"], config })
          const answers = await Promise.all(users.flatMap((userId) => [set(userId, { inbox: "ALL" }), set(userId, { email: "MINE" }), set(userId, { slack: "NONE" })]))
          expect(statuses(answers)).toEqual({ 200: 60 })
          for (const userId of users) {
            const read = await ok(creds, "/v2/notifications/config/get", { organizationId: "org", userId, documentIds: ["doc"] })
            expect(read.data[0].config).toMatchObject({ inbox: "ALL", email: "MINE", slack: "NONE" })
          }
        })
      })

      it("workspace/authtoken/reset: ten resets released together leave exactly one working token", async () => {
        const creds = await started.workspace()
        const answers = await together(10, () =>
          started.client.post("/v2/workspace/authtoken/reset", { apiKey: creds.apiKey }, creds.workspaceHeaders))
        expect(statuses(answers)).toEqual({ 200: 10 })
        const listed = await started.client.post("/v2/workspace/authtokens/get", { apiKey: creds.apiKey }, creds.workspaceHeaders)
        expect(listed.body.result.data.authTokens).toHaveLength(1)
        let working = 0
        for (const answer of answers) {
          const token = answer.body.result.data.newAuthToken.token as string
          const call = await started.client.post("/v2/organizations/get", {}, { ...creds.headers, "x-service-auth-token": token })
          if (call.status === 200) working++
          else expect(call.body.error.status).toBe("PERMISSION_DENIED")
        }
        expect(working).toBe(1)
      })

      describe.sequential("a race for one id has one winner, never a 500", () => {
        it("commentannotations/add: 50 callers with one annotationId", async () => {
          const creds = await started.workspace()
          const answers = await together(50, (i) =>
            post(creds, "/v2/commentannotations/add", {
              organizationId: "org",
              documentId: `doc${i % 3}`, // other documents too: their locks differ, the id is the organization's
              createOrganization: true,
              createDocument: true,
              commentAnnotations: [{ annotationId: "same", commentData: [{ commentText: `from ${i}`, from: { userId: "alice" } }] }]
            }))
          expect(statuses(answers)).toEqual({ 200: 1, 409: 49 })
          for (const answer of answers.filter((a) => a.status === 409)) {
            expect(answer.body.error).toMatchObject({ status: "ALREADY_EXISTS", details: { same: { message: "Annotation same already exists." } } })
          }
        })

        it("comments/add: 50 callers with one commentId", async () => {
          const creds = await started.workspace()
          await ok(creds, "/v2/commentannotations/add", {
            organizationId: "org",
            documentId: "doc",
            createOrganization: true,
            createDocument: true,
            commentAnnotations: [{ annotationId: "t", commentData: [{ commentText: "root", from: { userId: "alice" } }] }]
          })
          const answers = await together(50, (i) =>
            post(creds, "/v2/commentannotations/comments/add", {
              organizationId: "org",
              documentId: "doc",
              annotationId: "t",
              commentData: [{ commentId: 4242, commentText: `reply ${i}`, from: { userId: "bob" } }]
            }))
          expect(statuses(answers)).toEqual({ 200: 1, 409: 49 })
          const comments = (await ok(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc", annotationId: "t" })).data
          expect(comments.map((c: { commentId: number }) => c.commentId).filter((id: number) => id === 4242)).toHaveLength(1)
        })

        it("folders/add: 30 callers with one new folderId", async () => {
          const creds = await started.workspace()
          await ok(creds, "/v2/organizations/add", { organizations: [{ organizationId: "org" }] })
          const answers = await together(30, () =>
            post(creds, "/v2/organizations/folders/add", { organizationId: "org", folders: [{ folderId: "f" }] }))
          expect(statuses(answers)).toEqual({ 200: 30 })
          const items = answers.map((a) => a.body.result.data.f)
          expect(items.filter((item) => item.success)).toHaveLength(1)
          for (const item of items.filter((item) => !item.success)) expect(item.message).toBe("Folder already exists.")
        })

        it("v2 documents/add and users/add: one new id from 30 callers", async () => {
          const creds = await started.workspace()
          await ok(creds, "/v2/organizations/add", { organizations: [{ organizationId: "org" }] })
          const documents = await together(30, () =>
            post(creds, "/v2/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "d" }] }))
          // The losers get the hosted service's answer for an existing document: INTERNAL naming it, in the envelope.
          expect(statuses(documents)).toEqual({ 200: 1, 500: 29 })
          for (const loser of documents.filter((a) => a.status === 500)) {
            expect(loser.body.error).toMatchObject({ status: "INTERNAL", message: "Error adding document(s).", details: { d: { message: "Document already exists." } } })
          }
          const users = await together(30, (i) => post(creds, "/v2/users/add", { organizationId: "org", users: [{ userId: "new", name: `n${i}` }] }))
          expect(statuses(users)).toEqual({ 200: 30 })
          // One user, one internal id, whatever order the adds ran in.
          const ids = new Set(users.map((a) => a.body.result.data.new.id))
          expect(ids.size).toBe(1)
        })
      })
    })
  }
})
