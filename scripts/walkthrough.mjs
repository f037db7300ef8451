// @ts-check
// One successful call of every path, in an order where each finds what it needs: a workspace,
// an organization with documents, folders, users and comments, webhook endpoints and messages,
// then the deletions. `pnpm docs` records its requests and answers as the OpenAPI document's
// examples (scripts/examples.mjs, with `record` below); it is plain JavaScript so Node runs it
// without a build.

/**
 * @typedef {Record<string, any>} Context what earlier answers gave: ids, keys, tokens
 * @typedef {{ path: string, data: (ctx: Context) => unknown, keep?: (result: any, ctx: Context) => void, settle?: boolean }} Step
 *   settle: let background work (jobs, deliveries) run before the call
 */

const org = "acme"
const doc = "spec-42"
const ann = { userId: "u-ann", name: "Ann Lee", email: "ann@acme.example" }
const bo = { userId: "u-bo", name: "Bo Chen", email: "bo@acme.example" }
const cy = { userId: "u-cy" }
const day = Date.UTC(2026, 10, 2, 9, 30)

/** @type {ReadonlyArray<Step>} */
export const walkthrough = [
  {
    path: "/v2/workspace/create",
    data: () => ({ ownerEmail: "owner@acme.example", name: "Olive Owner", workspaceName: "Acme" }),
    keep: (result, ctx) => {
      const [apiKey, entry] = Object.entries(result.data.apiKeyList)[0]
      Object.assign(ctx, { workspaceId: result.data.id, workspaceAuthToken: result.data.authToken, apiKey, authToken: entry.authToken })
    }
  },
  { path: "/v2/workspace/get", data: () => ({}) },
  {
    path: "/v2/workspace/apikey/create",
    data: () => ({ ownerEmail: "owner@acme.example", type: "production", apiKeyName: "Production", createAuthToken: true }),
    keep: (result, ctx) => (ctx.secondKey = result.data.apiKey)
  },
  { path: "/v2/workspace/apikeys/get", data: () => ({ pageSize: 10 }) },
  { path: "/v2/workspace/apikey/update", data: (ctx) => ({ apiKey: ctx.secondKey, apiKeyName: "Production (EU)" }) },
  { path: "/v2/workspace/authtokens/get", data: (ctx) => ({ apiKey: ctx.secondKey }) },
  { path: "/v2/workspace/authtoken/reset", data: (ctx) => ({ apiKey: ctx.secondKey }) },
  { path: "/v2/workspace/domains/add", data: () => ({ domains: ["app.acme.example"] }) },
  { path: "/v1/workspace/domains/add", data: () => ({ domains: ["staging.acme.example"] }) },
  { path: "/v2/workspace/domains/get", data: () => ({}) },
  { path: "/v2/workspace/domains/delete", data: () => ({ domains: ["staging.acme.example"] }) },
  { path: "/v1/workspace/domains/delete", data: () => ({ domains: ["app.acme.example"] }) },
  { path: "/v2/workspace/permissionproviderconfig/get", data: () => ({}) },
  { path: "/v2/workspace/notificationconfig/get", data: () => ({}) },
  {
    path: "/v2/workspace/notificationconfig/update",
    data: () => ({ useNotificationService: true, notificationServiceConfig: { delayConfig: { isEnabled: true, delaySeconds: 60 } } })
  },
  { path: "/v2/workspace/emailconfig/get", data: () => ({}) },
  {
    path: "/v2/workspace/emailconfig/update",
    data: () => ({ emailServiceConfig: { fromEmail: "notifications@acme.example", fromCompany: "Acme", linkTemplate: "https://app.acme.example/docs/{documentId}#{annotationId}" } })
  },
  { path: "/v2/workspace/activityconfig/get", data: () => ({}) },
  // The first enable would make the log immutable (activities/update and delete refused); the walkthrough edits it later.
  { path: "/v2/workspace/activityconfig/update", data: () => ({ activityServiceConfig: { isEnabled: true, immutable: false, triggers: { comment: { "comment.add": true } } } }) },
  { path: "/v2/workspace/apikeyconfig/get", data: () => ({}) },
  { path: "/v2/workspace/apikeyconfig/update", data: () => ({ defaultDocumentAccessType: "organizationPrivate" }) },
  { path: "/v2/workspace/email/status", data: () => ({ ownerEmail: "owner@acme.example" }) },
  { path: "/v2/workspace/email/send-login-link", data: () => ({ email: "owner@acme.example", continueUrl: "http://localhost:3000/welcome" }) },
  { path: "/v2/organizations/add", data: () => ({ organizations: [{ organizationId: org, organizationName: "Acme Inc." }, { organizationId: "globex", organizationName: "Globex" }] }) },
  { path: "/v2/organizations/update", data: () => ({ organizations: [{ organizationId: "globex", organizationName: "Globex Corporation", plan: "enterprise" }] }) },
  { path: "/v2/organizations/get", data: () => ({ organizationIds: [org], pageSize: 10 }) },
  { path: "/v1/organizations/access/disablestate/update", data: () => ({ organizationIds: ["globex"], disabled: true }) },
  { path: "/v2/organizations/access/disablestate/update", data: () => ({ organizationIds: ["globex"], disabled: false }) },
  {
    path: "/v2/organizations/folders/add",
    data: () => ({ organizationId: org, folders: [{ folderId: "specs", folderName: "Specs" }, { folderId: "drafts", folderName: "Drafts", parentFolderId: "specs", accessType: "restricted" }] })
  },
  { path: "/v2/organizations/folders/get", data: () => ({ organizationId: org, folderId: "specs", maxDepth: 2 }) },
  { path: "/v1/organizations/documents/add", data: () => ({ organizationId: org, documents: [{ documentId: "spec-41", documentName: "Spec 41" }] }) },
  // createOrganization and createFolder: the example works replayed on its own, in a workspace without them.
  {
    path: "/v2/organizations/documents/add",
    data: () => ({ organizationId: org, createOrganization: true, folderId: "specs", createFolder: true, documents: [{ documentId: doc, documentName: "Spec 42" }] })
  },
  { path: "/v2/organizations/documents/get", data: () => ({ organizationId: org, pageSize: 20 }) },
  { path: "/v2/organizations/documents/access/update", data: () => ({ organizationId: org, documentIds: ["spec-41"], accessType: "restricted" }) },
  { path: "/v2/organizations/documents/access/disablestate/update", data: () => ({ organizationId: org, documentIds: ["spec-41"], disabled: true }) },
  { path: "/v2/organizations/folders/access/update", data: () => ({ organizationId: org, folderIds: ["specs"], accessType: "organizationPrivate", inheritFromParent: false }) },
  { path: "/v2/organizations/documents/update", data: () => ({ organizationId: org, documents: [{ documentId: doc, documentName: "Spec 42, revised" }] }) },
  { path: "/v1/organizations/documents/update", data: () => ({ organizationId: org, documents: [{ documentId: "spec-41", documentName: "Spec 41 (archived)" }] }) },
  { path: "/v2/organizations/folders/update", data: () => ({ organizationId: org, folders: [{ folderId: "drafts", folderName: "Drafts (shared)", parentFolderId: "root" }] }) },
  { path: "/v2/organizations/documents/move", data: () => ({ organizationId: org, documentIds: ["spec-41"], folderId: "drafts" }) },
  {
    path: "/v2/users/add",
    data: () => ({ organizationId: org, documentId: doc, users: [{ ...ann, accessRole: "editor" }, { ...bo, accessRole: "viewer" }] })
  },
  { path: "/v1/users/add", data: () => ({ organizationId: org, users: [{ ...cy, name: "Cy Park", email: "cy@acme.example" }] }) },
  { path: "/v2/users/get", data: () => ({ organizationId: org, documentId: doc, pageSize: 20 }) },
  { path: "/v1/users/update", data: () => ({ organizationId: org, users: [{ userId: bo.userId, name: "Bo Chen (Design)" }] }) },
  { path: "/v2/users/update", data: () => ({ organizationId: org, documentId: doc, users: [{ userId: bo.userId, accessRole: "editor" }] }) },
  { path: "/v2/organizations/usergroups/add", data: () => ({ organizationId: org, organizationUserGroups: [{ groupId: "design", groupName: "Design" }] }) },
  { path: "/v2/organizations/usergroups/users/add", data: () => ({ organizationId: org, organizationUserGroupId: "design", userIds: [ann.userId, bo.userId] }) },
  { path: "/v2/organizations/usergroups/users/delete", data: () => ({ organizationId: org, organizationUserGroupId: "design", userIds: [bo.userId] }) },
  { path: "/v2/presence/add", data: () => ({ organizationId: org, documentId: doc, users: [{ ...ann, status: "online" }, { ...bo, status: "online" }] }) },
  { path: "/v2/presence/update", data: () => ({ organizationId: org, documentId: doc, users: [{ userId: ann.userId, status: "away" }] }) },
  { path: "/v2/presence/delete", data: () => ({ organizationId: org, documentId: doc, userIds: [bo.userId] }) },
  { path: "/v2/livestate/broadcast", data: () => ({ organizationId: org, documentId: doc, liveStateDataId: "review-mode", data: { mode: "present", slide: 3 } }) },
  { path: "/v1/livestate/broadcast", data: () => ({ organizationId: org, documentId: doc, liveStateDataId: "review-mode", data: { slide: 4 }, merge: true }) },
  { path: "/v2/notifications/config/set", data: () => ({ organizationId: org, userIds: [ann.userId], documentIds: [doc], config: { inbox: "ALL", email: "MINE", slack: "NONE" } }) },
  { path: "/v2/notifications/config/get", data: () => ({ organizationId: org, userId: ann.userId, documentIds: [doc] }) },
  { path: "/v2/workspace/webhookconfig/get", data: () => ({}) },
  {
    path: "/v2/workspace/webhookconfig/update",
    data: () => ({ useWebhookService: true, webhookServiceConfig: { rawNotificationUrl: "https://hooks.acme.example/v1", authToken: "YWNtZTpzM2NyZXQ=", triggers: { "comment.reaction_add": false } } })
  },
  {
    path: "/v2/workspace/advancedwebhookconfig/update",
    data: () => ({ isEnabled: true })
  },
  { path: "/v2/workspace/advancedwebhookconfig/get", data: () => ({}) },
  {
    path: "/v2/workspace/advancedwebhook/endpoints/create",
    data: () => ({ url: "https://hooks.acme.example/atrium", description: "Comment events", filterTypes: ["comment.add", "comment_annotation.status_change", "invoice.paid"] }),
    keep: (result, ctx) => (ctx.endpointId = result.data.id)
  },
  { path: "/v2/workspace/advancedwebhook/endpoints/get", data: () => ({ limit: 10 }) },
  { path: "/v2/workspace/advancedwebhook/endpoints/update", data: (ctx) => ({ endpointId: ctx.endpointId, description: "Comment events (all)" }) },
  { path: "/v2/workspace/advancedwebhook/endpoints/secret/get", data: (ctx) => ({ endpointId: ctx.endpointId }) },
  { path: "/v2/workspace/advancedwebhook/endpoints/secret/rotate", data: (ctx) => ({ endpointId: ctx.endpointId }) },
  {
    path: "/v2/commentannotations/add",
    data: () => ({
      organizationId: org,
      documentId: doc,
      commentAnnotations: [{
        annotationId: "thread-1",
        location: { id: "section-2", locationName: "Pricing" },
        commentData: [{ commentId: 1, commentText: "Is this the final price?", from: ann, createdAt: day }]
      }]
    })
  },
  {
    path: "/v2/commentannotations/comments/add",
    data: () => ({ organizationId: org, documentId: doc, annotationId: "thread-1", commentData: [{ commentText: "Yes, signed off on Monday.", from: bo }] })
  },
  { path: "/v2/commentannotations/get", data: () => ({ organizationId: org, documentId: doc, pageSize: 50 }) },
  { path: "/v2/commentannotations/comments/get", data: () => ({ organizationId: org, documentId: doc, annotationId: "thread-1" }) },
  {
    path: "/v2/commentannotations/comments/update",
    data: () => ({ organizationId: org, documentId: doc, annotationId: "thread-1", commentIds: [1], updatedData: { commentText: "Is this the final price for 2027?" } })
  },
  {
    path: "/v2/commentannotations/comments/reactions/add",
    data: () => ({ organizationId: org, documentId: doc, annotationId: "thread-1", commentId: 1, reaction: { reactionId: "thumbs-up" }, from: bo })
  },
  {
    path: "/v2/commentannotations/comments/reactions/delete",
    data: () => ({ organizationId: org, documentId: doc, annotationId: "thread-1", commentId: 1, reaction: { reactionId: "thumbs-up" }, from: bo })
  },
  { path: "/v2/commentannotations/read", data: () => ({ organizationId: org, documentId: doc, annotationIds: ["thread-1"], userId: ann.userId }) },
  { path: "/v2/commentannotations/count/get", data: () => ({ organizationId: org, documentIds: [doc], userId: bo.userId }) },
  {
    path: "/v2/commentannotations/update",
    data: () => ({
      organizationId: org,
      documentId: doc,
      annotationIds: ["thread-1"],
      updatedData: { status: { id: "resolved", name: "Resolved", type: "terminal" }, resolvedByUserId: ann.userId }
    })
  },
  // A notification of the host's own, to Ann and Bo: Bo's inbox, and Bo reads it.
  {
    path: "/v2/notifications/add",
    data: () => ({
      organizationId: org,
      documentId: doc,
      notificationId: "release-1",
      actionUser: ann,
      displayHeadlineMessageTemplate: "{actionUser} published the release notes",
      displayBodyMessage: "Spec 42 is ready for review.",
      notifyUsers: [ann, bo],
      notifyAll: false
    })
  },
  { path: "/v2/notifications/get", data: () => ({ organizationId: org, userId: bo.userId, pageSize: 20 }) },
  { path: "/v2/notifications/update", data: () => ({ organizationId: org, notifications: [{ id: "release-1", readByUserIds: [bo.userId], persistReadForUsers: true }] }) },
  { path: "/v2/workspace/advancedwebhook/messages/create", data: () => ({ eventType: "invoice.paid", payload: { invoiceId: "inv-7", amount: 1200 }, eventId: "evt-inv-7" }), keep: (result, ctx) => (ctx.messageId = result.data.messageId) },
  { path: "/v2/workspace/advancedwebhook/messages/get", data: () => ({ eventType: "invoice.paid", limit: 10 }) },
  { path: "/v2/workspace/advancedwebhook/attempts/get", settle: true, data: (ctx) => ({ messageId: ctx.messageId, limit: 10 }) },
  { path: "/v2/workspace/advancedwebhook/messages/resend", data: (ctx) => ({ messageId: ctx.messageId, endpointId: ctx.endpointId }) },
  { path: "/v2/workspace/advancedwebhook/endpoints/recover", data: (ctx) => ({ endpointId: ctx.endpointId, since: new Date(day).toISOString() }) },
  {
    path: "/v2/activities/add",
    data: () => ({
      organizationId: org,
      documentId: doc,
      activities: [{ id: "act-1", featureType: "custom", actionType: "published", actionUser: ann, targetEntityId: doc, displayMessageTemplate: "{{user}} published {{document}}", displayMessageTemplateData: { user: "Ann Lee", document: "Spec 42" } }]
    })
  },
  { path: "/v2/activities/get", data: () => ({ organizationId: org, documentId: doc, featureTypes: ["custom"], pageSize: 20 }) },
  { path: "/v2/activities/update", data: () => ({ organizationId: org, activities: [{ id: "act-1", actionIcon: "rocket" }] }) },
  {
    path: "/v2/auth/generate_token",
    data: () => ({
      userId: ann.userId,
      userProperties: { name: ann.name, email: ann.email },
      permissions: { resources: [{ type: "organization", id: org }, { type: "document", id: doc, organizationId: org, accessRole: "editor" }] }
    }),
    keep: (result, ctx) => (ctx.userToken = result.data.token)
  },
  // The legacy call: the key's credentials in the body, no auth headers.
  { path: "/v1/auth/token/get", data: (ctx) => ({ apiKey: ctx.apiKey, authToken: ctx.authToken, userId: bo.userId, userProperties: { organizationId: org, email: bo.email } }) },
  // The client API, as Ann (her token): who she is, and what she may do.
  { path: "/v2/client/session/get", data: () => ({}) },
  { path: "/v2/client/access/get", data: () => ({ organizationId: org, documentIds: [doc, "spec-41"] }) },
  { path: "/v2/client/presence/get", data: () => ({ organizationId: org, documentId: doc }) },
  // Ann's comments through the client API: she writes as herself (no `from`), in the threads she may see.
  {
    path: "/v2/client/commentannotations/add",
    data: () => ({
      organizationId: org,
      documentId: doc,
      commentAnnotations: [{ annotationId: "thread-2", location: { id: "section-3", locationName: "Delivery" }, commentData: [{ commentId: 1, commentText: "Can we ship the draft in March?" }] }]
    })
  },
  {
    path: "/v2/client/commentannotations/comments/add",
    data: () => ({ organizationId: org, documentId: doc, annotationId: "thread-2", commentData: [{ commentId: 2, commentText: "Or early April at the latest." }] })
  },
  {
    path: "/v2/client/commentannotations/comments/update",
    data: () => ({ organizationId: org, documentId: doc, annotationId: "thread-2", commentIds: [2], updatedData: { commentText: "Or the first week of April at the latest." } })
  },
  {
    path: "/v2/client/commentannotations/comments/reactions/add",
    data: () => ({ organizationId: org, documentId: doc, annotationId: "thread-1", commentId: 1, reaction: { reactionId: "eyes" } })
  },
  {
    path: "/v2/client/commentannotations/comments/reactions/delete",
    data: () => ({ organizationId: org, documentId: doc, annotationId: "thread-1", commentId: 1, reaction: { reactionId: "eyes" } })
  },
  { path: "/v2/client/commentannotations/get", data: () => ({ organizationId: org, documentId: doc, pageSize: 50 }) },
  { path: "/v2/client/commentannotations/count/get", data: () => ({ organizationId: org, documentIds: [doc] }) },
  { path: "/v2/client/commentannotations/read", data: () => ({ organizationId: org, documentId: doc, annotationIds: ["thread-2"] }) },
  // Ann's inbox: the release notification, then read; her own preferences.
  { path: "/v2/client/notifications/get", data: () => ({ organizationId: org, pageSize: 20 }) },
  { path: "/v2/client/notifications/update", data: () => ({ organizationId: org, notificationIds: ["release-1"] }) },
  { path: "/v2/client/notifications/config/set", data: () => ({ organizationId: org, documentIds: [doc], config: { email: "ALL" } }) },
  { path: "/v2/client/notifications/config/get", data: () => ({ organizationId: org, documentIds: [doc] }) },
  { path: "/v2/notifications/delete", data: () => ({ organizationId: org, notificationIds: ["release-1"] }) },
  {
    path: "/v2/client/commentannotations/update",
    data: () => ({ organizationId: org, documentId: doc, annotationIds: ["thread-2"], updatedData: { status: { id: "in-progress", name: "In progress", type: "ongoing" } } })
  },
  { path: "/v2/client/commentannotations/comments/delete", data: () => ({ organizationId: org, documentId: doc, annotationId: "thread-2", commentIds: [2] }) },
  { path: "/v2/client/commentannotations/delete", data: () => ({ organizationId: org, documentId: doc, annotationIds: ["thread-2"] }) },
  {
    path: "/v2/auth/permissions/add",
    // Until 2100-01-01: a grant that expires during the walk's lifetime would change what get answers.
    data: () => ({
      user: { userId: cy.userId },
      permissions: { resources: [{ type: "organization", id: org, accessRole: "viewer" }, { type: "folder", id: "drafts", organizationId: org, accessRole: "editor", expiresAt: Date.UTC(2100, 0, 1) }] }
    })
  },
  { path: "/v2/auth/permissions/get", data: () => ({ organizationId: org, userIds: [cy.userId, bo.userId], folderIds: ["drafts"], documentIds: [doc] }) },
  { path: "/v2/auth/permissions/remove", data: () => ({ userId: cy.userId, permissions: { resources: [{ type: "folder", id: "drafts", organizationId: org }] } }) },
  // The provider on from here: the stored grants above are what permissions/get shows.
  {
    path: "/v2/workspace/permissionproviderconfig/update",
    data: () => ({ usePermissionProvider: true, permissionProviderConfig: { permissionProviderUrl: "https://acme.example/atrium/permissions", authToken: "provider-secret" } })
  },
  {
    path: "/v2/auth/generate_signature",
    data: () => ({ permissions: [{ userId: ann.userId, resourceId: doc, type: "document", hasAccess: true, accessRole: "editor" }] })
  },
  {
    path: "/v2/agents/execution/record",
    data: () => ({ agentId: "reviewer", agentName: "Spec reviewer", agentVersion: 3, status: "passed", message: "No blocking issues", startedAt: day, completedAt: day + 4200, organizationId: org, documentId: doc })
  },
  { path: "/v2/agents/execution/list", data: () => ({ agentId: "reviewer", organizationId: org, pageSize: 10 }) },
  {
    path: "/v2/memory/judgments/add",
    data: () => ({
      judgments: [
        { organizationId: org, documentId: doc, content: "Prices must show tax separately.", reasoning: "Required for EU invoices.", decision: "approved", judgeType: "human", reviewerId: ann.userId, contentType: "comment", confidence: 0.9 },
        { organizationId: org, documentId: "spec-40", content: "Prices show tax separately from the net amount.", reasoning: "Customers compare net prices.", decision: "approved", judgeType: "agent", contentType: "comment", confidence: 0.8 },
        { organizationId: org, documentId: doc, content: "Round prices to whole euros.", reasoning: "Loses cents on invoices.", decision: "rejected", judgeType: "human", reviewerId: bo.userId, contentType: "comment" }
      ]
    })
  },
  { path: "/v2/memory/judgments/query", data: () => ({ organizationId: org, decision: "approved", limit: 10 }) },
  { path: "/v2/memory/suggest", data: () => ({ query: "Should prices show tax separately?", organizationId: org }) },
  { path: "/v2/organizations/documents/migrate", data: () => ({ organizationId: org, documentId: "spec-41", newDocumentId: "spec-41-v2" }), keep: (result, ctx) => (ctx.migrationId = result.data.migrationId) },
  { path: "/v2/organizations/documents/migrate/status", settle: true, data: (ctx) => ({ organizationId: org, migrationId: ctx.migrationId }) },
  { path: "/v2/commentannotations/comments/delete", data: () => ({ organizationId: org, documentId: doc, annotationId: "thread-1", commentIds: [2] }) },
  { path: "/v2/commentannotations/delete", data: () => ({ organizationId: org, documentId: doc, annotationIds: ["thread-1"] }) },
  // Bo's data, exported and then deleted.
  { path: "/v2/users/data/get", data: () => ({ organizationId: org, userId: bo.userId }) },
  { path: "/v2/users/delete", data: () => ({ organizationId: org, documentId: doc, userIds: [bo.userId] }) },
  { path: "/v2/users/data/delete", data: () => ({ userIds: [bo.userId], organizationIds: [org] }), keep: (result, ctx) => (ctx.jobId = result.data.jobId) },
  { path: "/v2/users/data/delete/status", settle: true, data: (ctx) => ({ jobId: ctx.jobId }) },
  // The deletions last: each takes everything that belongs to what it deletes.
  { path: "/v2/activities/delete", data: () => ({ organizationId: org, activityIds: ["act-1"] }) },
  { path: "/v1/organizations/documents/delete", data: () => ({ organizationId: org, documentIds: ["spec-41-v2"] }) },
  { path: "/v2/organizations/documents/delete", data: () => ({ organizationId: org, documentIds: [doc] }) },
  { path: "/v2/organizations/folders/delete", data: () => ({ organizationId: org, folderId: "drafts" }) },
  { path: "/v2/organizations/delete", data: () => ({ organizationIds: ["globex"] }) },
  { path: "/v2/workspace/advancedwebhook/endpoints/delete", data: (ctx) => ({ endpointId: ctx.endpointId }) }
]

/**
 * Walks every step in order: `settle()` first where a step asks for it, then `call` for the
 * step's result (what its `keep` reads); `call` throws to stop the walk. `ctx` holds what earlier
 * answers gave (ids, keys, tokens), for callers that send credentials.
 * @param {{ call: (path: string, data: unknown, ctx: Context) => Promise<any>, settle: () => Promise<unknown> }} walker
 */
export const replay = async ({ call, settle }) => {
  /** @type {Context} */
  const ctx = {}
  for (const step of walkthrough) {
    if (step.settle) await settle()
    // Called first: `step.keep?.(await call(…))` would skip the call for steps without `keep`.
    const result = await call(step.path, step.data(ctx), ctx)
    step.keep?.(result, ctx)
  }
}

/**
 * The request and the answer of every path, walked against `atrium` (a fresh one: `testAtrium`
 * over `MemoryStorage`, whose sequential ids make two walks give the same ids), as the OpenAPI
 * document's examples: what scripts/examples.mjs writes and packages/core/test/codegen/examples.test.ts
 * replays. Throws when a step does not succeed or a path of `operations` has no step.
 * @param {{
 *   atrium: { runDue: () => Promise<unknown> },
 *   client: { post: (path: string, data: unknown, headers: Record<string, string>) => Promise<{ status: number, text: string, body: any }> },
 *   operations: ReadonlyArray<{ paths: ReadonlyArray<string>, auth: string }>
 * }} target
 * @returns {Promise<Record<string, { request: { data: unknown }, response: unknown }>>}
 */
export const record = async ({ atrium, client, operations }) => {
  const authOf = new Map(operations.flatMap((operation) => operation.paths.map((path) => [path, operation.auth])))
  /** @param {string | undefined} auth @param {Context} ctx @returns {Record<string, string>} */
  const headersFor = (auth, ctx) =>
    auth === "apiKey" ? { "x-service-api-key": ctx.apiKey, "x-service-auth-token": ctx.authToken }
    : auth === "workspace" ? { "x-service-workspace-id": ctx.workspaceId, "x-service-workspace-auth-token": ctx.workspaceAuthToken }
    : auth === "user" ? { authorization: `Bearer ${ctx.userToken}` }
    : {}
  /** @type {Record<string, { request: { data: unknown }, response: unknown }>} */
  const examples = {}
  await replay({
    settle: () => atrium.runDue(),
    call: async (path, data, ctx) => {
      if (!authOf.has(path)) throw new Error(`walkthrough: no operation at ${path}`)
      const answer = await client.post(path, data, headersFor(authOf.get(path), ctx))
      if (answer.status >= 300) throw new Error(`walkthrough: ${path} answered ${answer.status}: ${answer.text}`)
      examples[path] = { request: { data }, response: answer.body }
      return answer.body.result
    }
  })
  const missing = [...authOf.keys()].filter((path) => !(path in examples))
  if (missing.length > 0) throw new Error(`walkthrough: no step for ${missing.join(", ")}`)
  return examples
}
