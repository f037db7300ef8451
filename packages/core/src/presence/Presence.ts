import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { type AccessQuestion, DocumentAccess } from "../access/DocumentAccess.js"
import { Transactions } from "../ports/Transactions.js"
import { ChangeFeed } from "../realtime/ChangeFeed.js"
import { clientEntry, seenSince } from "./PresenceLife.js"
import { PresenceRepo } from "./PresenceRepo.js"
import type { PresenceDeleteInput, PresenceWriteInput } from "./PresenceSchemas.js"

/**
 * The presence list of each document, as the server API and the client API's presence/get see it:
 * the same list realtime connections enter and leave (docs/realtime.md, "Presence"). Every write
 * tells the document's subscribers, on every server, once it commits.
 */
export class Presence extends Effect.Service<Presence>()("@atrium/core/Presence", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* PresenceRepo
    const access = yield* DocumentAccess
    const feed = yield* ChangeFeed
    const { lock, withTransaction } = yield* Transactions

    /**
     * One transaction for the whole list. `add` writes each entry as given
     * (status `online` when omitted); `update` changes only the fields given,
     * and adds a user not yet present. Either is a sign of life; an entry a
     * connection holds stays held (its `data` too), so it is still renewed.
     */
    const write = (apiKey: string, input: typeof PresenceWriteInput.Type, mode: "add" | "update") =>
      withTransaction(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const { documentId, organizationId } = input
        yield* lock("presence", apiKey, organizationId, documentId) // update merges what it reads; add must not slip between
        for (const user of input.users) {
          const existing = yield* repo.find(apiKey, organizationId, documentId, user.userId)
          const kept = mode === "update" ? existing : undefined
          const row = {
            apiKey,
            organizationId,
            documentId,
            userId: user.userId,
            name: user.name ?? kept?.name ?? null,
            email: user.email ?? kept?.email ?? null,
            status: user.status ?? kept?.status ?? "online",
            data: existing?.data ?? null,
            heldBy: existing?.heldBy ?? null,
            updatedAt: now,
            lastSeenAt: now
          }
          yield* repo.put(row)
          yield* feed.publish({
            kind: "presence",
            apiKey,
            organizationId,
            documentId,
            user: { userId: row.userId, name: row.name, email: row.email },
            status: row.status,
            data: existing?.data == null ? null : JSON.parse(existing.data),
            origin: null
          })
        }
      }))

    return {
      add: (apiKey: string, input: typeof PresenceWriteInput.Type) => write(apiKey, input, "add"),
      update: (apiKey: string, input: typeof PresenceWriteInput.Type) => write(apiKey, input, "update"),
      /**
       * client presence/get: the users on the document's list now (their entries not expired), for a
       * user who may read it (PERMISSION_DENIED naming the document otherwise).
       */
      present: (question: AccessQuestion) =>
        Effect.zipRight(
          access.require(question, "viewer"),
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Effect.map(repo.list(question.apiKey, question.organizationId, question.documentId, seenSince(now)), (rows) => rows.map(clientEntry)))
        ),
      /** Spec presence/delete: users not on the list are ignored; each one removed leaves (its own connections told too). */
      delete: (apiKey: string, input: typeof PresenceDeleteInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const { documentId, organizationId } = input
          const removed = yield* repo.delete(apiKey, organizationId, documentId, input.userIds)
          for (const userId of removed) yield* feed.publish({ kind: "presence.leave", apiKey, organizationId, documentId, userId, origin: null })
        }))
    }
  })
}) {}
