import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { TokenResource } from "../tokens/Jwt.js"
import { normalizeExpiresAt } from "../tokens/Jwt.js"
import { storedApiKeyConfig } from "../workspace/ApiKeyConfig.js"
import { SettingsRepo } from "../workspace/SettingsRepo.js"
import { makeAccessFactsCache } from "./AccessFactsCache.js"
import { AccessRepo, type StoredAccessFacts, type UserAccessFacts } from "./AccessRepo.js"
import { type ApiError, permissionDenied } from "../protocol/ApiError.js"
import type { UserCaller } from "../protocol/Operation.js"
import { type AccessDecision, type AccessRole, type AccessType, decideAccess, type Grant, isLive } from "./AccessRule.js"
import { PermissionProvider, type PermissionSource } from "./PermissionProvider.js"

/** Who asks about what: `documentId` for `check`, a folder id for `checkFolder`. */
export interface AccessQuestion {
  readonly apiKey: string
  readonly userId: string
  readonly organizationId: string
  readonly documentId: string
  /** The `permissions.resources` of the token the user came with, if any. */
  readonly tokenResources?: ReadonlyArray<TokenResource>
  /** Why access is asked, told to the permission provider (default `setDocuments`: a document read). */
  readonly source?: PermissionSource
}

/** The question a client call asks for its user (the token's user, with the token's entries) about one document. */
export const questionOf = (caller: UserCaller, organizationId: string, documentId: string): AccessQuestion => ({
  apiKey: caller.apiKey,
  userId: caller.userId,
  organizationId,
  documentId,
  tokenResources: caller.tokenResources
})

export interface FolderQuestion extends Omit<AccessQuestion, "documentId"> {
  readonly folderId: string
}

/** The decision, with the resource's access type and whether it exists (a document not added yet is judged all the same). */
export interface ResourceAccess extends AccessDecision {
  readonly accessType: AccessType
  readonly exists: boolean
}

/** The questions a reader of many documents asks (comments/ThreadReaders.ts). */
export interface AccessJudge {
  readonly check: (question: AccessQuestion) => Effect.Effect<ResourceAccess>
  readonly checkOrganization: (question: Omit<AccessQuestion, "documentId">) => Effect.Effect<ResourceAccess>
}

/** The token's entries as grants, per organization: made once per token (its resources array), as a verified token is kept. */
const tokenGrantsByToken = new WeakMap<ReadonlyArray<TokenResource>, Map<string, ReadonlyArray<Grant>>>()

const NO_GRANTS: ReadonlyArray<Grant> = []

/** The token's entries that speak of this organization, as grants. */
const tokenGrants = (resources: ReadonlyArray<TokenResource>, organizationId: string): ReadonlyArray<Grant> => {
  if (resources.length === 0) return NO_GRANTS
  let byOrganization = tokenGrantsByToken.get(resources)
  if (byOrganization === undefined) tokenGrantsByToken.set(resources, byOrganization = new Map())
  const kept = byOrganization.get(organizationId)
  if (kept !== undefined) return kept
  const grants = resources
    .filter((resource) => resource.type === "organization" ? resource.id === organizationId : resource.organizationId === organizationId)
    .map((resource) => ({
      level: resource.type,
      id: resource.id,
      accessRole: resource.accessRole,
      expiresAt: resource.expiresAt === undefined ? undefined : normalizeExpiresAt(resource.expiresAt)
    }))
  if (grants.length === 0) return NO_GRANTS // kept only for the organizations the token names: a caller cannot grow it with made-up ids
  byOrganization.set(organizationId, grants)
  return grants
}

/**
 * May this user read, or write, this document (or folder) now? The facts from storage, the token
 * and the permission provider, decided by the one rule (AccessRule.ts). A document or organization
 * that does not exist yet is judged as one at the organization's root with the key's default access
 * type (apikeyconfig, `public` until set), so a public default lets a user open a new document
 * (docs/decisions.md, "Access").
 */
export class DocumentAccess extends Effect.Service<DocumentAccess>()("@atrium/core/DocumentAccess", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* AccessRepo
    const provider = yield* PermissionProvider
    const settings = yield* SettingsRepo
    const cache = makeAccessFactsCache()

    /** The key's facts as of `version` (read first, so a write committed since gives a later one): kept while it stays. */
    const keyFacts = (apiKey: string, version: number) => ({
      factsOf: (organizationId: string, documentId: string, userId: string) =>
        cache.get(version, `d\0${apiKey}\0${organizationId}\0${documentId}\0${userId}`, repo.facts(apiKey, organizationId, documentId, userId), (facts) =>
          // A document's creation moves no version (comments/add creates them): only one that exists is kept.
          facts.document !== undefined),
      folderFactsOf: (organizationId: string, folderId: string, userId: string) =>
        cache.get(version, `f\0${apiKey}\0${organizationId}\0${folderId}\0${userId}`, repo.folderFacts(apiKey, organizationId, folderId, userId)),
      userFactsOf: (organizationId: string, userId: string) =>
        cache.get(version, `u\0${apiKey}\0${organizationId}\0${userId}`, repo.userFacts(apiKey, organizationId, userId)),
      defaultAccessType: () =>
        cache.get(version, `k\0${apiKey}`, Effect.suspend(() => Effect.map(storedApiKeyConfig(settings, apiKey), (config) => config.defaultDocumentAccessType))),
      providerEnabled: () => cache.get(version, `p\0${apiKey}`, Effect.suspend(() => provider.enabled(apiKey)))
    })
    type KeyFacts = ReturnType<typeof keyFacts>
    const withKeyFacts = <A>(apiKey: string, f: (facts: KeyFacts) => Effect.Effect<A>): Effect.Effect<A> =>
      Effect.flatMap(repo.version(apiKey), (version) => f(keyFacts(apiKey, version)))

    /** The document's own access type, else its folder's, else the key's default (read only then). */
    const accessTypeOf = (key: KeyFacts, document: StoredAccessFacts["document"]): Effect.Effect<AccessType> =>
      document !== undefined && !document.inheritAccess ? Effect.succeed(document.accessType)
        : document?.folderAccessType !== undefined ? Effect.succeed(document.folderAccessType)
        : key.defaultAccessType()

    /** The rule over a resource's facts: its folder chain and access type, and what storage knows of the user. */
    const decide = (
      key: KeyFacts,
      question: Omit<AccessQuestion, "documentId">,
      stored: UserAccessFacts,
      resource: {
        readonly type: "organization" | "document" | "folder"
        readonly id: string
        readonly documentId: string | undefined
        readonly disabled: boolean
        readonly folderChain: ReadonlyArray<string>
        readonly accessType: AccessType
        readonly parentFolderId: string | undefined
        readonly exists: boolean
      }
    ): Effect.Effect<ResourceAccess> => {
      const { apiKey, organizationId, userId } = question
      const organizationDisabled = stored.organization?.disabled ?? false
      // The provider is asked only when it is on and the organization is not switched off (step 1 comes first).
      const providerAnswer = organizationDisabled ? Effect.succeed(undefined) : Effect.flatMap(key.providerEnabled(), (enabled) =>
        !enabled ? Effect.succeed(undefined) : Effect.map(
          provider.ask(apiKey, [{
            userId,
            resource: {
              id: resource.id,
              type: resource.type,
              source: question.source ?? "setDocuments",
              organizationId,
              ...(resource.parentFolderId !== undefined && { parentFolderId: resource.parentFolderId })
            }
          }]),
          (answers) => answers[0]
        ))
      // Plain combinators rather than a generator: every read and write of the client API pays this.
      return Effect.flatMap(providerAnswer, (answer) =>
        Effect.map(Clock.currentTimeMillis, (now): ResourceAccess => {
          const fromToken = tokenGrants(question.tokenResources ?? [], organizationId)
          const organizationGrant = (grant: Grant) => grant.level === "organization" && isLive(grant, now)
          const decision = decideAccess({
            organizationId,
            organizationDisabled,
            documentId: resource.documentId,
            documentDisabled: resource.disabled,
            folderChain: resource.folderChain,
            accessType: resource.accessType,
            // A user of the organization: one of its user groups, or an organization-level grant that has not expired.
            member: stored.inUserGroup || fromToken.some(organizationGrant) || stored.grants.some(organizationGrant),
            provider: answer,
            tokenGrants: fromToken,
            storedGrants: stored.grants,
            now
          })
          return { ...decision, accessType: resource.accessType, exists: resource.exists }
        }))
    }

    const checkAt = (key: KeyFacts, question: AccessQuestion): Effect.Effect<ResourceAccess> =>
      Effect.flatMap(key.factsOf(question.organizationId, question.documentId, question.userId), (stored) => {
        const document = stored.document
        const folderChain = document?.folderChain ?? []
        return Effect.flatMap(accessTypeOf(key, document), (accessType) =>
          decide(key, question, stored, {
            type: "document",
            id: question.documentId,
            documentId: question.documentId,
            disabled: document?.disabled ?? false,
            folderChain,
            accessType,
            parentFolderId: folderChain[0],
            exists: document !== undefined
          }))
      })

    const checkOrganizationAt = (key: KeyFacts, question: Omit<AccessQuestion, "documentId">): Effect.Effect<ResourceAccess> =>
      Effect.flatMap(key.userFactsOf(question.organizationId, question.userId), (stored) =>
        decide(key, question, stored, {
          type: "organization",
          id: question.organizationId,
          documentId: undefined,
          disabled: false,
          folderChain: [],
          accessType: "organizationPrivate",
          parentFolderId: undefined,
          exists: stored.organization !== undefined
        }))

    const check = (question: AccessQuestion): Effect.Effect<ResourceAccess> => withKeyFacts(question.apiKey, (key) => checkAt(key, question))

    return {
      check,

      /**
       * The client API's guard (spec client-api.md, "Conventions" 5): the decision when the user
       * may read the document (`viewer`) or write it (`editor`), else PERMISSION_DENIED naming it.
       */
      require: (question: AccessQuestion, needed: AccessRole): Effect.Effect<ResourceAccess, ApiError<"PERMISSION_DENIED">> =>
        Effect.flatMap(check(question), (decision) => {
          if (decision.accessRole === "editor" || (needed === "viewer" && decision.accessRole === "viewer")) return Effect.succeed(decision)
          return Effect.fail(permissionDenied(
            decision.accessRole === null
              ? `User ${question.userId} has no access to document ${question.documentId}.`
              : `User ${question.userId} may only read document ${question.documentId}${decision.readOnly ? " (it is disabled)" : ""}: writing needs editor.`
          ))
        }),

      /** The same question about a folder (judged as restricted when the organization has no such folder). */
      checkFolder: (question: FolderQuestion): Effect.Effect<ResourceAccess> =>
        withKeyFacts(question.apiKey, (key) =>
          Effect.flatMap(key.folderFactsOf(question.organizationId, question.folderId, question.userId), (stored) =>
            decide(key, question, stored, {
            type: "folder",
            id: question.folderId,
            documentId: undefined,
            disabled: false,
            folderChain: stored.folder?.folderChain ?? [question.folderId],
            accessType: stored.folder?.accessType ?? "restricted",
            parentFolderId: undefined,
            exists: stored.folder !== undefined
          }))),

      /**
       * The same question about the organization itself: its grant, else `editor` for its user
       * groups (it is, to itself, organizationPrivate), else nothing.
       */
      checkOrganization: (question: Omit<AccessQuestion, "documentId">): Effect.Effect<ResourceAccess> =>
        withKeyFacts(question.apiKey, (key) => checkOrganizationAt(key, question)),

      /**
       * `check` and `checkOrganization` for many questions about one key in one transaction (a
       * notification's recipients): the key's access version is read once, not once a question.
       * Only within the caller's transaction, which changes no access meanwhile.
       */
      pinned: (apiKey: string): Effect.Effect<AccessJudge> =>
        withKeyFacts(apiKey, (key) =>
          Effect.succeed({
            check: (question: AccessQuestion) => checkAt(key, question),
            checkOrganization: (question: Omit<AccessQuestion, "documentId">) => checkOrganizationAt(key, question)
          }))
    }
  })
}) {}
