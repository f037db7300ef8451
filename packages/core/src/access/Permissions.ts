import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { createHmac, randomBytes } from "node:crypto"
import { canonicalJson } from "../crypto/PageToken.js"
import { Events } from "../events/Events.js"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.js"
import { Ids } from "../ports/Ids.js"
import { ServerSecretsRepo } from "../ports/ServerSecretsRepo.js"
import { Transactions } from "../ports/Transactions.js"
import { Access } from "../protocol/Access.js"
import { type ApiError, notFound } from "../protocol/ApiError.js"
import { compareText } from "../TextOrder.js"
import { normalizeExpiresAt } from "../tokens/Jwt.js"
import { newUser, userLock, UsersRepo } from "../users/UsersRepo.js"
import { accessEvents, resourceOf } from "./AccessEvents.js"
import type { AddPermissionsInput, GenerateSignatureInput, GetPermissionsInput, RemovePermissionsInput, UserPermissions } from "./AccessSchemas.js"
import { DocumentAccess, type ResourceAccess } from "./DocumentAccess.js"

/** One folder's or document's entry of a permissions/get answer. */
type Entry = NonNullable<UserPermissions["documents"]>[string]

type Resource = { readonly type: "organization" | "document" | "folder"; readonly id: string; readonly organizationId?: string | undefined }

/** Where a grant on `resource` is stored: its organization, level and scope (a membership row's key). */
const placeOf = (resource: Resource) =>
  resource.type === "organization"
    ? { organizationId: resource.id, level: "organization" as const, scopeId: "" }
    // The schema requires organizationId on documents and folders.
    : { organizationId: resource.organizationId ?? "", level: resource.type, scopeId: resource.id }

/** The organizations the resources name, each once, in one order (code points) whatever the call's. */
const organizationsOf = (resources: ReadonlyArray<Resource>): ReadonlyArray<string> =>
  [...new Set(resources.map((resource) => placeOf(resource).organizationId))].sort(compareText)

const denied = (what: "organization" | "folder" | "document", access: ResourceAccess) => ({
  error: `User does not have access to ${what}`,
  errorCode: "permission_denied" as const,
  ...(what !== "organization" && { accessType: access.accessType })
})

const entry = (what: "folder" | "document", access: ResourceAccess): Entry =>
  access.accessRole === null
    ? denied(what, access)
    : { accessRole: access.accessRole, accessType: access.accessType, ...(access.expiresAt !== undefined && { expiresAt: access.expiresAt }) }

/**
 * Grants stored by the server API and what the access rule decides of them (auth/permissions/*,
 * compatible-api-facts.md §1.5), and the signature a permission provider's answer may carry.
 */
export class Permissions extends Effect.Service<Permissions>()("@atrium/core/Permissions", {
  accessors: true,
  effect: Effect.gen(function*() {
    const users = yield* UsersRepo
    const organizations = yield* OrganizationsRepo
    const access = yield* DocumentAccess
    const events = yield* Events
    const ids = yield* Ids
    const secrets = yield* ServerSecretsRepo
    const { lock, withTransaction } = yield* Transactions
    const gate = yield* Access
    /** A grant names its organization per resource: the call is refused while any of them is disabled (docs/decisions.md, "Access"). */
    const ensureEnabled = (apiKey: string, resources: ReadonlyArray<Resource>) =>
      Effect.forEach(new Set(resources.map((resource) => placeOf(resource).organizationId)), (organizationId) =>
        gate.ensureOrganizationEnabled(apiKey, organizationId), { discard: true })
    const signingSecret = yield* secrets.getOrCreate("permission-signature-key", randomBytes(32).toString("base64"))

    return {
      /** Stores each resource's grant for the user (made if new, as its organizations are), replacing a grant at the same place. */
      add: (apiKey: string, input: typeof AddPermissionsInput.Type): Effect.Effect<void, ApiError<"PERMISSION_DENIED">> =>
        withTransaction(Effect.gen(function*() {
          yield* ensureEnabled(apiKey, input.permissions.resources)
          const { userId } = input.user
          const now = yield* Clock.currentTimeMillis
          // Organizations not made yet are made first, in one order whatever the call's (then the user is locked, as users/add
          // does): on PostgreSQL a caller waits for another's uncommitted insert of the same organization, and two callers
          // naming the same new ones in other orders would each wait for the other's, a deadlock broken only after a second.
          for (const organizationId of organizationsOf(input.permissions.resources)) yield* organizations.ensure(apiKey, organizationId, now)
          yield* lock(...userLock(apiKey, userId))
          if ((yield* users.findUser(apiKey, userId)) === undefined) yield* users.putUser(newUser(apiKey, userId, yield* ids.make(), now))
          for (const resource of input.permissions.resources) {
            const place = placeOf(resource)
            const accessRole = resource.accessRole ?? "editor"
            const expiresAt = resource.expiresAt === undefined ? undefined : normalizeExpiresAt(resource.expiresAt)
            yield* users.putMembership({ apiKey, ...place, userId, accessRole, expiresAt, createdAt: now, updatedAt: now })
          }
          yield* events.emit(apiKey, Effect.sync(() =>
            input.permissions.resources.map((resource) =>
              accessEvents.granted(
                userId,
                resourceOf(placeOf(resource)),
                resource.accessRole ?? "editor",
                resource.expiresAt === undefined ? undefined : normalizeExpiresAt(resource.expiresAt)
              ))
          ))
        })),

      /** Removes the user's grant at each resource; a resource without one is no error (there is nothing to remove). */
      remove: (apiKey: string, input: typeof RemovePermissionsInput.Type): Effect.Effect<void, ApiError<"PERMISSION_DENIED">> =>
        withTransaction(Effect.gen(function*() {
          yield* ensureEnabled(apiKey, input.permissions.resources)
          yield* lock(...userLock(apiKey, input.userId))
          const removed: Array<Resource> = []
          for (const resource of input.permissions.resources) {
            const place = placeOf(resource)
            if (yield* users.deleteMembership(apiKey, place.organizationId, place.level, place.scopeId, input.userId)) removed.push(resource)
          }
          yield* events.emit(apiKey, Effect.sync(() => removed.map((resource) => accessEvents.revoked(input.userId, resourceOf(placeOf(resource))))))
        })),

      /**
       * What the access rule decides for each user on the organization and on each folder and
       * document asked (stored grants, the provider when on; no token). A folder or document that
       * does not exist fails the call NOT_FOUND with, per user, which (the facts).
       */
      get: (apiKey: string, input: typeof GetPermissionsInput.Type): Effect.Effect<Record<string, UserPermissions>, ApiError<"NOT_FOUND">> =>
        Effect.gen(function*() {
          const { organizationId } = input
          const answers: Record<string, UserPermissions> = {}
          const missing: Record<string, { folders?: Record<string, unknown>; documents?: Record<string, unknown> }> = {}
          for (const userId of input.userIds) {
            const question = { apiKey, organizationId, userId, source: "identify" as const }
            const organization = yield* access.checkOrganization(question)
            const folders: Record<string, Entry> = {}
            const documents: Record<string, Entry> = {}
            const absent = { folders: {} as Record<string, unknown>, documents: {} as Record<string, unknown> }
            for (const folderId of input.folderIds ?? []) {
              const decided = yield* access.checkFolder({ ...question, folderId })
              if (!decided.exists) absent.folders[folderId] = { error: "Folder or document does not exist", errorCode: "does_not_exist" }
              else folders[folderId] = entry("folder", decided)
            }
            for (const documentId of input.documentIds ?? []) {
              const decided = yield* access.check({ ...question, documentId, source: "setDocuments" })
              if (!decided.exists) absent.documents[documentId] = { error: "Folder or document does not exist", errorCode: "does_not_exist" }
              else documents[documentId] = entry("document", decided)
            }
            if (Object.keys(absent.folders).length + Object.keys(absent.documents).length > 0) {
              missing[userId] = {
                ...(Object.keys(absent.folders).length > 0 && { folders: absent.folders }),
                ...(Object.keys(absent.documents).length > 0 && { documents: absent.documents })
              }
            }
            answers[userId] = {
              organization: {
                [organizationId]: organization.accessRole === null
                  ? denied("organization", organization)
                  : { accessRole: organization.accessRole, ...(organization.expiresAt !== undefined && { expiresAt: organization.expiresAt }) }
              },
              ...(input.folderIds !== undefined && { folders }),
              ...(input.documentIds !== undefined && { documents })
            }
          }
          if (Object.keys(missing).length > 0) return yield* Effect.fail(notFound("Folder or document does not exist", missing))
          return answers
        }),

      /**
       * The signature of a permission provider's answer: HMAC-SHA256 (hex) of the permissions as
       * canonical JSON, under a key of this API key's own (derived from a server secret), so only
       * this Atrium makes it and each key's differ (docs/decisions.md, "Access").
       */
      generateSignature: (apiKey: string, input: typeof GenerateSignatureInput.Type): Effect.Effect<{ readonly signature: string }> =>
        Effect.sync(() => {
          const key = createHmac("sha256", Buffer.from(signingSecret, "base64")).update(apiKey).digest()
          return { signature: createHmac("sha256", key).update(canonicalJson(input.permissions)).digest("hex") }
        })
    }
  })
}) {}
