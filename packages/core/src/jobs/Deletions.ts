import * as Effect from "effect/Effect"
import { accessEvents } from "../access/AccessEvents.js"
import type { NewEvent } from "../events/EventListener.js"
import { Events } from "../events/Events.js"
import { chunksOf } from "../sql/Chunks.js"
import { deletionEvents } from "./DeletionEvents.js"
import { type DeletionScope, JobDataPort } from "./JobDataPort.js"

/** Documents or folders one set of statements names: the statements stay short, whatever a folder holds. */
const CHUNK = 100

/**
 * Deleting an organization, folders or documents: every row that belongs to them, in every table
 * the domains list (`dataTables`, visited by JobDataPort; test/jobs/inventory.test.ts holds the
 * schema to that list), then their events. Each runs inside the caller's transaction, which has
 * locked what it deletes and checked that it exists: the rows and the events commit together.
 */
export class Deletions extends Effect.Service<Deletions>()("@atrium/core/Deletions", {
  effect: Effect.gen(function*() {
    const data = yield* JobDataPort
    const events = yield* Events

    const purge = (apiKey: string, scope: DeletionScope) =>
      Effect.forEach(data.deletionData[scope.level], (kind) => data.deleteScopeData(apiKey, scope, kind), { discard: true })

    /** The rows of these documents or folders, a chunk at a time, then each one's events. */
    const purgeEach = (apiKey: string, organizationId: string, level: "document" | "folder", ids: ReadonlyArray<string>, eventsOf: (id: string) => ReadonlyArray<NewEvent>) =>
      Effect.gen(function*() {
        for (const chunk of chunksOf(ids, CHUNK)) yield* purge(apiKey, { organizationId, level, ids: chunk })
        yield* events.emit(apiKey, ids.flatMap(eventsOf))
      })

    return {
      /** Each document's rows, then `document.delete` and `access.document_deleted` for each. */
      documents: (apiKey: string, organizationId: string, documentIds: ReadonlyArray<string>) =>
        purgeEach(apiKey, organizationId, "document", documentIds, (id) => [deletionEvents.document(organizationId, id), accessEvents.documentDeleted(organizationId, id)]),

      /** The folders' own rows and grants (their documents: `documents`, first), then `folder.delete` and `access.folder_deleted` for each. */
      folders: (apiKey: string, organizationId: string, folderIds: ReadonlyArray<string>) =>
        purgeEach(apiKey, organizationId, "folder", folderIds, (id) => [deletionEvents.folder(organizationId, id), accessEvents.folderDeleted(organizationId, id)]),

      /** Every row of the organization, then `organization.delete` and `access.organization_deleted` (none per document: the organization's says it all). */
      organization: (apiKey: string, organizationId: string) =>
        Effect.gen(function*() {
          yield* purge(apiKey, { organizationId, level: "organization" })
          yield* events.emit(apiKey, [deletionEvents.organization(organizationId), accessEvents.organizationDeleted(organizationId)])
        })
    }
  })
}) {}
