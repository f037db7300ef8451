import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { accessEvents } from "../access/AccessEvents.js"
import { Events } from "../events/Events.js"
import { Deletions } from "../jobs/Deletions.js"
import { Access } from "../protocol/Access.js"
import { PageTokens } from "../protocol/PageTokens.js"
import { afterCommit, lockInOrder, Transactions } from "../ports/Transactions.js"
import { compareText } from "../TextOrder.js"
import type {
  AddOrganizationsInput,
  DeleteOrganizationsInput,
  DisableStateInput,
  GetOrganizationsInput,
  Organization,
  OrganizationInput
} from "./OrganizationSchemas.js"
import { organizationLock, type OrganizationRow, OrganizationsRepo } from "./OrganizationsRepo.js"

const DEFAULT_PAGE_SIZE = 1000

const toOrganization = (row: OrganizationRow): Organization => ({
  ...row.metadata,
  id: row.id,
  organizationName: row.name,
  disabled: row.disabled
})

/** Organizations of an API key: adding, listing, and the disabled flag. */
export class Organizations extends Effect.Service<Organizations>()("@atrium/core/Organizations", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* OrganizationsRepo
    const access = yield* Access
    const pageTokens = yield* PageTokens
    const events = yield* Events
    const deletions = yield* Deletions
    const { lock, withTransaction } = yield* Transactions

    /**
     * Every organization a call writes is locked before any is written, in one order (`lockInOrder`):
     * each is held until the call commits, and two calls naming the same ones in other orders would
     * each wait for the other (docs/storage.md, "Concurrent writes").
     */
    const lockOrganizations = (apiKey: string, organizationIds: ReadonlyArray<string>) =>
      lockInOrder(lock, organizationIds.map((id) => organizationLock(apiKey, id)))

    /** organizations/add (`create`) and organizations/update: name kept unless given, metadata merged, each under its lock. */
    const write = (apiKey: string, organizations: ReadonlyArray<typeof OrganizationInput.Type>, create: boolean) =>
      withTransaction(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        yield* lockOrganizations(apiKey, organizations.map((organization) => organization.organizationId))
        const inOrder = [...organizations].sort((a, b) => compareText(a.organizationId, b.organizationId))
        const missing = new Set<string>()
        for (const { organizationId, organizationName, ...metadata } of inOrder) {
          const existing = yield* repo.find(apiKey, organizationId)
          if (existing === undefined && !create) {
            missing.add(organizationId)
            continue
          }
          yield* repo.upsert({
            apiKey,
            id: organizationId,
            name: organizationName ?? existing?.name ?? "",
            disabled: existing?.disabled ?? false,
            metadata: { ...existing?.metadata, ...metadata },
            createdAt: existing?.createdAt ?? now,
            updatedAt: now
          })
        }
        const done = create ? "Added Successfully" : "Updated Successfully"
        const data: Record<string, { success: boolean; id: string; message: string }> = {}
        for (const { organizationId: id } of organizations) {
          data[id] = missing.has(id) ? { success: false, id, message: "Organization does not exist" } : { success: true, id, message: done }
        }
        return data
      }))

    return {
      /**
       * Spec: organizations/access/disablestate/update. An unknown organization is reported, never created.
       * One transaction (a commit per organization cost more than its write); what this process remembers
       * of each is dropped once it has committed. Emits `access.organization_disabled_updated` for each
       * organization that exists, so realtime closes (or may reopen) what it serves of it.
       */
      updateDisabledState: (apiKey: string, input: typeof DisableStateInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          yield* lockOrganizations(apiKey, input.organizationIds)
          const data: Record<string, { success: boolean; id: string; message: string }> = {}
          const updated: Array<string> = []
          for (const id of input.organizationIds) {
            const found = yield* repo.setDisabled(apiKey, id, input.disabled, now)
            yield* afterCommit(Effect.sync(() => access.forgetOrganization(apiKey, id)))
            if (found) updated.push(id)
            data[id] = found
              ? { success: true, id, message: "Updated disable state for organization Successfully" }
              : { success: false, id, message: "Organization does not exist" }
          }
          yield* events.emit(apiKey, updated.map((id) => accessEvents.organizationDisabledUpdated(id, input.disabled)))
          return data
        })),

      /**
       * Adds organizations; an existing one has its name and metadata updated (merged: concurrent adds apply one after
       * the other, under its lock). New ones are inserted in one order, whatever the call's, as auth/permissions/add
       * makes the ones it names: a caller waits for another's uncommitted insert of the same organization.
       */
      add: (apiKey: string, input: typeof AddOrganizationsInput.Type) =>
        write(apiKey, input.organizations, true),

      /**
       * organizations/update: the name and metadata of existing organizations, merged as add merges them. An unknown
       * organization is reported (`success: false`, "Organization does not exist"), never created (docs/decisions.md).
       */
      update: (apiKey: string, input: typeof AddOrganizationsInput.Type) =>
        write(apiKey, input.organizations, false),

      /**
       * organizations/delete: each organization and every row of it, in every table (its documents, folders,
       * comments, grants, user groups, notifications, webhook messages: jobs/Deletions.ts), in one transaction,
       * emitting `organization.delete` and `access.organization_deleted`. The users' records stay: they are the
       * key's, shared by its organizations (users/data/delete removes them). An unknown organization fails its
       * item ("Organization does not exist") and nothing of its id is touched, so a repeated call changes nothing.
       */
      delete: (apiKey: string, input: typeof DeleteOrganizationsInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const ids = [...new Set(input.organizationIds)]
          yield* lockOrganizations(apiKey, ids)
          const data: Record<string, { success: boolean; id: string; message: string }> = {}
          for (const id of ids) {
            const found = (yield* repo.find(apiKey, id)) !== undefined
            if (found) {
              yield* deletions.organization(apiKey, id)
              yield* afterCommit(Effect.sync(() => access.forgetOrganization(apiKey, id)))
            }
            data[id] = found ? { success: true, id, message: "Deleted Successfully" } : { success: false, id, message: "Organization does not exist" }
          }
          return data
        })),

      get: (apiKey: string, input: typeof GetOrganizationsInput.Type) =>
        Effect.gen(function*() {
          const limit = input.pageSize ?? DEFAULT_PAGE_SIZE
          return yield* pageTokens.page({
            scope: { apiKey, operation: "organizations.get", filters: { ids: input.organizationIds ?? null } },
            token: input.pageToken,
            limit,
            read: (after: string | undefined, limit) =>
              repo.list(apiKey, { ...(input.organizationIds && { ids: input.organizationIds }), ...(after !== undefined && { after }), limit }),
            cursorOf: (row) => row.id,
            present: (page) => ({ items: page.items.map(toOrganization), next: page.next })
          })
        })
    }
  })
}) {}
