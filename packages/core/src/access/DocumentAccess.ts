import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { TokenResource } from "../tokens/Jwt.js"
import { normalizeExpiresAt } from "../tokens/Jwt.js"
import { storedApiKeyConfig } from "../workspace/ApiKeyConfig.js"
import { SettingsRepo } from "../workspace/SettingsRepo.js"
import { AccessRepo, type StoredAccessFacts, type UserAccessFacts } from "./AccessRepo.js"
import { type AccessDecision, type AccessType, decideAccess, type Grant } from "./AccessRule.js"
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

export interface FolderQuestion extends Omit<AccessQuestion, "documentId"> {
  readonly folderId: string
}

/** The decision, with the resource's access type and whether it exists (a document not added yet is judged all the same). */
export interface ResourceAccess extends AccessDecision {
  readonly accessType: AccessType
  readonly exists: boolean
}

/** The token's entries that speak of this organization, as grants. */
const tokenGrants = (resources: ReadonlyArray<TokenResource>, organizationId: string): ReadonlyArray<Grant> =>
  resources
    .filter((resource) => resource.type === "organization" ? resource.id === organizationId : resource.organizationId === organizationId)
    .map((resource) => ({
      level: resource.type,
      id: resource.id,
      accessRole: resource.accessRole,
      expiresAt: resource.expiresAt === undefined ? undefined : normalizeExpiresAt(resource.expiresAt),
      source: "token"
    }))

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

    /** The document's own access type, else its folder's, else the key's default (read only then). */
    const accessTypeOf = (apiKey: string, document: StoredAccessFacts["document"]): Effect.Effect<AccessType> =>
      document !== undefined && !document.inheritAccess ? Effect.succeed(document.accessType)
        : document?.folderAccessType !== undefined ? Effect.succeed(document.folderAccessType)
        : Effect.map(storedApiKeyConfig(settings, apiKey), (config) => config.defaultDocumentAccessType)

    /** The rule over a resource's facts: its folder chain and access type, and what storage knows of the user. */
    const decide = (
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
    ): Effect.Effect<ResourceAccess> =>
      Effect.gen(function*() {
        const { apiKey, organizationId, userId } = question
        const now = yield* Clock.currentTimeMillis
        const organizationDisabled = stored.organization?.disabled ?? false
        const askProvider = !organizationDisabled && (yield* provider.enabled(apiKey))
        const providerAnswer = askProvider
          ? (yield* provider.ask(apiKey, [{
            userId,
            resource: {
              id: resource.id,
              type: resource.type,
              source: question.source ?? "setDocuments",
              organizationId,
              ...(resource.parentFolderId !== undefined && { parentFolderId: resource.parentFolderId })
            }
          }]))[0]
          : undefined
        const grants: ReadonlyArray<Grant> = [
          ...tokenGrants(question.tokenResources ?? [], organizationId),
          ...stored.grants.map((grant) => ({ ...grant, source: "stored" as const }))
        ]
        const decision = decideAccess({
          organizationId,
          organizationDisabled,
          documentId: resource.documentId,
          documentDisabled: resource.disabled,
          folderChain: resource.folderChain,
          accessType: resource.accessType,
          // A user of the organization: one of its user groups, or an organization-level grant that has not expired.
          member: stored.inUserGroup || grants.some((grant) => grant.level === "organization" && (grant.expiresAt === undefined || grant.expiresAt > now)),
          provider: providerAnswer,
          grants,
          now
        })
        return { ...decision, accessType: resource.accessType, exists: resource.exists }
      })

    return {
      check: (question: AccessQuestion): Effect.Effect<ResourceAccess> =>
        Effect.flatMap(repo.facts(question.apiKey, question.organizationId, question.documentId, question.userId), (stored) => {
          const document = stored.document
          const folderChain = document?.folderChain ?? []
          return Effect.flatMap(accessTypeOf(question.apiKey, document), (accessType) =>
            decide(question, stored, {
              type: "document",
              id: question.documentId,
              documentId: question.documentId,
              disabled: document?.disabled ?? false,
              folderChain,
              accessType,
              parentFolderId: folderChain[0],
              exists: document !== undefined
            }))
        }),

      /** The same question about a folder (judged as restricted when the organization has no such folder). */
      checkFolder: (question: FolderQuestion): Effect.Effect<ResourceAccess> =>
        Effect.flatMap(repo.folderFacts(question.apiKey, question.organizationId, question.folderId, question.userId), (stored) =>
          decide(question, stored, {
            type: "folder",
            id: question.folderId,
            documentId: undefined,
            disabled: false,
            folderChain: stored.folder?.folderChain ?? [question.folderId],
            accessType: stored.folder?.accessType ?? "restricted",
            parentFolderId: undefined,
            exists: stored.folder !== undefined
          })),

      /**
       * The same question about the organization itself: its grant, else `editor` for its user
       * groups (it is, to itself, organizationPrivate), else nothing.
       */
      checkOrganization: (question: Omit<AccessQuestion, "documentId">): Effect.Effect<ResourceAccess> =>
        Effect.flatMap(repo.userFacts(question.apiKey, question.organizationId, question.userId), (stored) =>
          decide(question, stored, {
            type: "organization",
            id: question.organizationId,
            documentId: undefined,
            disabled: false,
            folderChain: [],
            accessType: "organizationPrivate",
            parentFolderId: undefined,
            exists: stored.organization !== undefined
          }))
    }
  })
}) {}
