import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { accessEvents } from "../access/AccessEvents.js"
import type { NewEvent } from "../events/EventListener.js"
import { Events } from "../events/Events.js"
import { FoldersRepo, implicitFolder } from "../folders/FoldersRepo.js"
import { Deletions } from "../jobs/Deletions.js"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.js"
import { type ApiError, internal, notFound } from "../protocol/ApiError.js"
import { type Page, PageTokens } from "../protocol/PageTokens.js"
import { Ids } from "../ports/Ids.js"
import { lockInOrder, Transactions } from "../ports/Transactions.js"
import type {
  AddDocumentsV1Input,
  AddDocumentsV2Input,
  DeleteDocumentsInput,
  Document,
  DocumentAccessItem,
  DocumentDisabledItem,
  DocumentInput,
  GetDocumentsInput,
  MoveDocumentsInput,
  UpdateDocumentAccessInput,
  UpdateDocumentDisabledInput,
  UpdateDocumentsInput
} from "./DocumentSchemas.js"
import { documentLock, DocumentsRepo, type DocumentSummary, newDocument } from "./DocumentsRepo.js"

const DEFAULT_PAGE_SIZE = 1000

type ItemResult = { success: boolean; id: string; message: string; code?: string }

/** documents/add v1 (`upsert`), v2 (`insert`: an existing one fails its item) and documents/update (`update`: a missing one does). */
type WriteMode = "upsert" | "insert" | "update"

/**
 * A v2 batch's answer (compatibility facts §1.7): the items when all succeeded; otherwise INTERNAL
 * `message` with every item in `details`, the successful ones having been written.
 */
const failedItemsAsError = (message: string) => (data: Record<string, ItemResult>): Effect.Effect<Record<string, ItemResult>, ApiError<"INTERNAL">> =>
  Object.values(data).some((item) => !item.success) ? Effect.fail(internal(message, data) as ApiError<"INTERNAL">) : Effect.succeed(data)

/** A document the access operations name that the organization does not have fails its item only (docs/decisions.md, "Access"). */
const NO_SUCH_DOCUMENT = "Document does not exist"

const toDocument = (row: DocumentSummary): Document => ({ documentName: row.name, disabled: row.disabled, accessType: row.accessType, id: row.id })

/** Documents of an organization. */
export class Documents extends Effect.Service<Documents>()("@atrium/core/Documents", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* DocumentsRepo
    const organizations = yield* OrganizationsRepo
    const folders = yield* FoldersRepo
    const pageTokens = yield* PageTokens
    const ids = yield* Ids
    const deletions = yield* Deletions
    const events = yield* Events
    const { lock, withTransaction } = yield* Transactions

    /**
     * Locks every document a call writes before any is written, in one order (`lockInOrder`): each is held
     * until the call commits, and two calls naming the same documents in other orders would each wait for
     * the other (docs/storage.md, "Concurrent writes").
     */
    const lockDocuments = (apiKey: string, organizationId: string, documentIds: ReadonlyArray<string>) =>
      lockInOrder(lock, documentIds.map((documentId) => documentLock(apiKey, organizationId, documentId)))

    /**
     * Sets one field of each named document in one transaction, and emits `event` for each one
     * changed (realtime re-checks who may read it): the two access operations' common shape.
     */
    const setEach = <Item>(
      apiKey: string,
      organizationId: string,
      documentIds: ReadonlyArray<string>,
      set: (documentId: string, now: number) => Effect.Effect<boolean>,
      updated: Item,
      event: (documentId: string) => NewEvent
    ) =>
      withTransaction(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        yield* lockDocuments(apiKey, organizationId, documentIds)
        const data: Record<string, Item | { success: false; message: string }> = {}
        const changed: Array<string> = []
        for (const documentId of documentIds) {
          const found = yield* set(documentId, now)
          if (found) changed.push(documentId)
          data[documentId] = found ? updated : { success: false, message: NO_SUCH_DOCUMENT }
        }
        yield* events.emit(apiKey, Effect.sync(() => changed.map(event)))
        return data
      }))

    /**
     * Writes one document (metadata merged, under the lock the call took: `lockDocuments`) in a savepoint
     * of the call's transaction, so a batch never half-writes an item. `upsert` and `insert` put it in
     * `folderId` (null: the root); `update` keeps its folder and creates nothing.
     * `moved` when it now lies in another folder than before (a new one: than the root, where the
     * access rule judges a document not added yet).
     */
    const write = (
      apiKey: string,
      organizationId: string,
      folderId: string | null,
      document: typeof DocumentInput.Type,
      mode: WriteMode
    ) =>
      withTransaction(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const { documentId, documentName, ...metadata } = document
        const existing = yield* repo.find(apiKey, organizationId, documentId)
        if (existing !== undefined) {
          if (mode === "insert") {
            return { item: { success: false, id: existing.internalId, message: "Document already exists.", code: "already-exists" } as ItemResult, moved: false }
          }
          const folder = mode === "update" ? existing.folderId : folderId
          yield* repo.update({
            ...existing,
            name: documentName ?? existing.name,
            folderId: folder,
            metadata: { ...existing.metadata, ...metadata },
            updatedAt: now
          })
          const message = mode === "update" ? "Updated Successfully" : "Added Successfully"
          return { item: { success: true, id: existing.internalId, message } as ItemResult, moved: existing.folderId !== folder }
        }
        if (mode === "update") {
          return { item: { success: false, id: documentId, message: NO_SUCH_DOCUMENT, code: "not-found" } as ItemResult, moved: false }
        }
        const row = newDocument({
          apiKey,
          organizationId,
          id: documentId,
          internalId: yield* ids.make(),
          now,
          name: documentName,
          folderId,
          metadata
        })
        yield* repo.insert(row)
        return { item: { success: true, id: row.internalId, message: "Added Successfully" } as ItemResult, moved: folderId !== null }
      }))

    /** Writes each document into the folder (null: the root); emits `access.document_folder_updated` for each one that moved. */
    const writeAll = (
      apiKey: string,
      organizationId: string,
      folderId: string | null,
      documents: ReadonlyArray<typeof DocumentInput.Type>,
      mode: WriteMode
    ) =>
      Effect.gen(function*() {
        yield* lockDocuments(apiKey, organizationId, documents.map((document) => document.documentId))
        const data: Record<string, ItemResult> = {}
        const moved: Array<string> = []
        for (const document of documents) {
          const written = yield* write(apiKey, organizationId, folderId, document, mode)
          data[document.documentId] = written.item
          if (written.moved) moved.push(document.documentId)
        }
        // Usually none (documents at the root): an empty list reads nothing.
        yield* events.emit(apiKey, moved.map((documentId) => accessEvents.documentFolderUpdated(organizationId, documentId, folderId)))
        return data
      })

    /** v2 documents/add's writes: the organization and folder it may create, and each item's result. */
    const addV2Items = (apiKey: string, input: typeof AddDocumentsV2Input.Type) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        if (input.createOrganization === true) yield* organizations.ensure(apiKey, input.organizationId, now)
        else if ((yield* organizations.find(apiKey, input.organizationId)) === undefined) {
          return yield* notFound(`Organization ${input.organizationId} does not exist; pass createOrganization: true to create it.`)
        }
        if (!(yield* folderExists(apiKey, input.organizationId, input.folderId))) {
          if (input.createFolder !== true || input.folderId === undefined) {
            return yield* notFound(`Folder ${input.folderId} does not exist; pass createFolder: true to create it.`)
          }
          yield* folders.insert(implicitFolder(apiKey, input.organizationId, input.folderId, now))
        }
        return yield* writeAll(apiKey, input.organizationId, input.folderId ?? null, input.documents, "insert")
      })

    const folderExists = (apiKey: string, organizationId: string, folderId: string | undefined) =>
      folderId === undefined
        ? Effect.succeed(true)
        : Effect.map(folders.find(apiKey, organizationId, folderId), (folder) => folder !== undefined)

    return {
      /** Spec v1 documents/add: a missing organization is created; an existing document is updated. */
      addV1: (apiKey: string, input: typeof AddDocumentsV1Input.Type) =>
        withTransaction(Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          yield* organizations.ensure(apiKey, input.organizationId, now)
          if (!(yield* folderExists(apiKey, input.organizationId, input.folderId))) {
            return yield* notFound(`Folder ${input.folderId} does not exist in organization ${input.organizationId}.`)
          }
          return yield* writeAll(apiKey, input.organizationId, input.folderId ?? null, input.documents, "upsert")
        })),

      /**
       * v2 documents/add (docs/compatibility.md, "Organizations, documents and folders"): an existing document is an
       * `already-exists` failure, reported as the hosted service does: INTERNAL with
       * every item in `details`, the other items still written.
       */
      addV2: (apiKey: string, input: typeof AddDocumentsV2Input.Type) =>
        Effect.gen(function*() {
          // The items that succeed commit together (all or none if the process dies), then the failure is answered.
          return yield* failedItemsAsError("Error adding document(s).")(yield* withTransaction(addV2Items(apiKey, input)))
        }),

      /**
       * documents/update: the name and metadata of existing documents (merged as add merges them), each left in its
       * folder. A missing document fails its item (`not-found`): v2 answers as v2 add does, INTERNAL "Error updating
       * document(s)." with every item in `details` and the others written; v1 answers 200 with the items (compatibility facts §1.7).
       */
      update: (apiKey: string, input: typeof UpdateDocumentsInput.Type, failures: "error" | "items") =>
        Effect.gen(function*() {
          const data = yield* withTransaction(writeAll(apiKey, input.organizationId, null, input.documents, "update"))
          return failures === "error" ? yield* failedItemsAsError("Error updating document(s).")(data) : data
        }),

      /**
       * documents/delete: each document and every row that belongs to it, in every table (jobs/Deletions.ts), in one
       * transaction, emitting `document.delete` and `access.document_deleted` for each. A document the organization
       * does not have fails its item (`not-found`) and nothing of its id is touched, so a repeated call changes
       * nothing; v2 answers as v2 update does, v1 with the items (compatibility facts §1.7).
       */
      delete: (apiKey: string, input: typeof DeleteDocumentsInput.Type, failures: "error" | "items") =>
        Effect.gen(function*() {
          const { documentIds, organizationId } = input
          const data = yield* withTransaction(Effect.gen(function*() {
            yield* lockDocuments(apiKey, organizationId, documentIds)
            const items: Record<string, ItemResult> = {}
            const found: Array<string> = []
            for (const documentId of new Set(documentIds)) {
              const existing = yield* repo.find(apiKey, organizationId, documentId)
              if (existing !== undefined) found.push(documentId)
              items[documentId] = existing !== undefined
                ? { success: true, id: existing.internalId, message: "Deleted Successfully" }
                : { success: false, id: documentId, message: NO_SUCH_DOCUMENT, code: "not-found" }
            }
            yield* deletions.documents(apiKey, organizationId, found)
            return items
          }))
          return failures === "error" ? yield* failedItemsAsError("Error deleting document(s).")(data) : data
        }),

      /**
       * documents/move: the documents go into the folder, all or none. No item answers (the hosted answer has no
       * data), so a missing folder or document is NOT_FOUND naming it, and nothing moves (docs/decisions.md).
       * Emits `access.document_folder_updated` for each one whose folder changed, as add does.
       */
      move: (apiKey: string, input: typeof MoveDocumentsInput.Type): Effect.Effect<void, ApiError<"NOT_FOUND">> =>
        withTransaction(Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          if (!(yield* folderExists(apiKey, input.organizationId, input.folderId))) {
            return yield* notFound(`Folder ${input.folderId} does not exist in organization ${input.organizationId}.`)
          }
          yield* lockDocuments(apiKey, input.organizationId, input.documentIds)
          const moved: Array<string> = []
          for (const documentId of input.documentIds) {
            const existing = yield* repo.find(apiKey, input.organizationId, documentId)
            if (existing === undefined) return yield* notFound(`Document ${documentId} does not exist in organization ${input.organizationId}.`)
            if (existing.folderId === input.folderId) continue
            yield* repo.update({ ...existing, folderId: input.folderId, updatedAt: now })
            moved.push(documentId)
          }
          yield* events.emit(apiKey, moved.map((documentId) => accessEvents.documentFolderUpdated(input.organizationId, documentId, input.folderId)))
        })),

      /**
       * documents/access/update: each document gets the access type as its own, so it no longer
       * follows its folder's (docs/decisions.md, "Access": nothing gives inheritance back yet).
       */
      updateAccessType: (apiKey: string, input: typeof UpdateDocumentAccessInput.Type): Effect.Effect<Record<string, DocumentAccessItem>> =>
        setEach(
          apiKey,
          input.organizationId,
          input.documentIds,
          (documentId, now) => repo.setAccessType(apiKey, input.organizationId, documentId, input.accessType, now),
          { success: true, accessType: input.accessType, message: "Document access type updated." },
          (documentId) => accessEvents.documentTypeUpdated(input.organizationId, documentId, input.accessType)
        ),

      /** documents/access/disablestate/update: a disabled document is read only for everyone (the access rule, step 2). */
      updateDisabledState: (apiKey: string, input: typeof UpdateDocumentDisabledInput.Type): Effect.Effect<Record<string, DocumentDisabledItem>> =>
        setEach(
          apiKey,
          input.organizationId,
          input.documentIds,
          (documentId, now) => repo.setDisabled(apiKey, input.organizationId, documentId, input.disabled, now),
          { success: true, disabled: input.disabled, message: "Document disabled state updated." },
          (documentId) => accessEvents.documentDisabledUpdated(input.organizationId, documentId, input.disabled)
        ),

      /** Spec documents/get: filters combine; keyset pages ordered by document id. */
      get: (apiKey: string, input: typeof GetDocumentsInput.Type): Effect.Effect<Page<Document>, ApiError<"INVALID_ARGUMENT">> =>
        // No generator: the hottest read (docs/benchmarks.md).
        pageTokens.page({
          scope: { apiKey, operation: "documents.get", filters: [input.organizationId, input.documentIds ?? null, input.folderId ?? null] },
          token: input.pageToken,
          limit: input.pageSize ?? DEFAULT_PAGE_SIZE,
          read: (after: string | undefined, limit) =>
            repo.list(apiKey, input.organizationId, { ids: input.documentIds, folderId: input.folderId, after, limit }),
          cursorOf: (row) => row.id,
          present: (page) => ({ items: page.items.map(toDocument), next: page.next })
        })
    }
  })
}) {}
