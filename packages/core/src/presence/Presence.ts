import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { type AccessQuestion, DocumentAccess } from "../access/DocumentAccess.js"
import { Transactions } from "../ports/Transactions.js"
import { PresenceRepo } from "./PresenceRepo.js"
import type { PresenceDeleteInput, PresenceWriteInput } from "./PresenceSchemas.js"

/** The presence list of each document. */
export class Presence extends Effect.Service<Presence>()("@atrium/core/Presence", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* PresenceRepo
    const access = yield* DocumentAccess
    const { lock, withTransaction } = yield* Transactions

    /**
     * One transaction for the whole list. `add` writes each entry as given
     * (status `online` when omitted); `update` changes only the fields given,
     * and adds a user not yet present.
     */
    const write = (apiKey: string, input: typeof PresenceWriteInput.Type, mode: "add" | "update") =>
      withTransaction(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const { documentId, organizationId } = input
        yield* lock("presence", apiKey, organizationId, documentId) // update merges what it reads; add must not slip between
        for (const user of input.users) {
          const existing = mode === "update" ? yield* repo.find(apiKey, organizationId, documentId, user.userId) : undefined
          yield* repo.put({
            apiKey,
            organizationId,
            documentId,
            userId: user.userId,
            name: user.name ?? existing?.name ?? null,
            email: user.email ?? existing?.email ?? null,
            status: user.status ?? existing?.status ?? "online",
            updatedAt: now
          })
        }
      }))

    return {
      add: (apiKey: string, input: typeof PresenceWriteInput.Type) => write(apiKey, input, "add"),
      update: (apiKey: string, input: typeof PresenceWriteInput.Type) => write(apiKey, input, "update"),
      /**
       * client presence/get: the users on the document's list, for a user who may read it
       * (PERMISSION_DENIED naming the document otherwise).
       */
      present: (question: AccessQuestion) =>
        Effect.zipRight(
          access.require(question, "viewer"),
          Effect.map(repo.list(question.apiKey, question.organizationId, question.documentId), (rows) =>
            rows.map((row) => ({ userId: row.userId, name: row.name, email: row.email, status: row.status, data: null, lastSeenAt: row.updatedAt })))
        ),
      /** Spec presence/delete: users not on the list are ignored. */
      delete: (apiKey: string, input: typeof PresenceDeleteInput.Type) =>
        repo.delete(apiKey, input.organizationId, input.documentId, input.userIds)
    }
  })
}) {}
