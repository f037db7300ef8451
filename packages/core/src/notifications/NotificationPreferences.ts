import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import { Transactions } from "../ports/Transactions.js"
import { compareText } from "../TextOrder.js"
import type {
  Channel,
  GetNotificationConfigInput,
  NotificationConfigEntry,
  SetNotificationConfigInput
} from "./NotificationPreferenceSchemas.js"
import { type NotificationPreferenceRow, NotificationPreferencesRepo } from "./NotificationPreferencesRepo.js"

/** The SDK's defaults when nothing is set (docs/compatibility.md, "Notifications"). */
const DEFAULTS = { inbox: "ALL", email: "MINE" } as const

/** Every channel of a user in a document, resolved: what acts (slack, unset, is NONE: the host's channel is off until asked for). */
export interface ActingChannels {
  readonly inbox: Channel
  readonly email: Channel
  readonly slack: Channel
}

/**
 * Each channel resolves on its own: the first level that sets it (the document,
 * then the user's organization default), else the default; slack has no default
 * and is shown only when set.
 */
const resolve = (levels: ReadonlyArray<NotificationPreferenceRow | undefined>) => {
  const pick = (channel: "inbox" | "email" | "slack"): Channel | undefined =>
    levels.find((level) => level?.[channel] != null)?.[channel] ?? undefined
  const slack = pick("slack")
  return { inbox: pick("inbox") ?? DEFAULTS.inbox, email: pick("email") ?? DEFAULTS.email, ...(slack !== undefined && { slack }) }
}

/** The channels that act: as resolved, slack NONE when never set (the host's channel is off until asked for). */
const acting = (levels: ReadonlyArray<NotificationPreferenceRow | undefined>): ActingChannels => {
  const resolved = resolve(levels)
  return { ...resolved, slack: resolved.slack ?? "NONE" }
}

/** A user's channels as config/get answers them: slack only when set. */
type ChannelConfig = NotificationConfigEntry["config"]

/**
 * The involved users' preferences as a comment event carries them, keyed by userId: exactly one of
 * the two keys, the document's when a document-level value exists for one of them (the facts §8.2,
 * docs/decisions.md "Notifications").
 */
export type UsersNotificationsConfig =
  | { readonly usersDocumentNotificationsConfig: Readonly<Record<string, ChannelConfig>> }
  | { readonly usersOrganizationNotificationsConfig: Readonly<Record<string, ChannelConfig>> }

/**
 * The stored rows of one read, by level: `levels(documentId, userId)` is that user's document row
 * then their organization row, what `resolve` takes; `row` one level alone.
 */
const byLevel = (rows: ReadonlyArray<NotificationPreferenceRow>) => {
  const stored = new Map(rows.map((row) => [JSON.stringify([row.documentId, row.userId]), row]))
  const row = (documentId: string | null, userId: string) => stored.get(JSON.stringify([documentId, userId]))
  return { row, levels: (documentId: string, userId: string) => [row(documentId, userId), row(null, userId)] }
}

/** A level that sets at least one channel. */
const setsAChannel = (row: NotificationPreferenceRow | undefined) =>
  row !== undefined && (row.inbox !== null || row.email !== null || row.slack !== null)

/** Per-user notification preferences, per document and as an organization-level default. */
export class NotificationPreferences extends Effect.Service<NotificationPreferences>()("@atrium/core/NotificationPreferences", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* NotificationPreferencesRepo
    const { withTransaction } = yield* Transactions

    return {
      /**
       * The user's channels in each of these documents, resolved as get answers them (document,
       * then organization, then default): what the inbox and the other channels act on.
       */
      channelsFor: (apiKey: string, organizationId: string, userId: string, documentIds: ReadonlyArray<string>) =>
        Effect.map(repo.list(apiKey, organizationId, [userId], documentIds), (rows) => {
          const { levels } = byLevel(rows)
          return new Map(documentIds.map((documentId) => [documentId, acting(levels(documentId, userId))]))
        }),

      /** Each of these users' channels in one document, read at once (a notification's email recipients). */
      usersChannelsIn: (apiKey: string, organizationId: string, userIds: ReadonlyArray<string>, documentId: string) =>
        Effect.map(repo.list(apiKey, organizationId, userIds, [documentId]), (rows) => {
          const { levels } = byLevel(rows)
          return new Map(userIds.map((userId) => [userId, acting(levels(documentId, userId))]))
        }),

      /**
       * These users' preferences in these documents, read at once (one statement for an event
       * batch): `of(documentId, userIds)` answers some of them in one of the documents, as comment
       * events carry them, each user's channels resolved as get answers them.
       */
      usersConfigs: (apiKey: string, organizationId: string, userIds: ReadonlyArray<string>, documentIds: ReadonlyArray<string>) =>
        Effect.map(repo.list(apiKey, organizationId, userIds, documentIds), (rows) => {
          const { levels, row } = byLevel(rows)
          return (documentId: string, users: ReadonlyArray<string>): UsersNotificationsConfig => {
            const config = Object.fromEntries(users.map((userId) => [userId, resolve(levels(documentId, userId))]))
            return users.some((userId) => setsAChannel(row(documentId, userId)))
              ? { usersDocumentNotificationsConfig: config }
              : { usersOrganizationNotificationsConfig: config }
          }
        }),

      /** Spec notifications/config/get: the organization entry first (when asked), then one entry per document, in request order. */
      get: (apiKey: string, input: typeof GetNotificationConfigInput.Type) =>
        Effect.gen(function*() {
          const { organizationId, userId } = input
          const documentIds = input.documentIds ?? []
          const rows = yield* repo.list(apiKey, organizationId, [userId], documentIds)
          const organizationRow = rows.find((row) => row.documentId === null)
          const entry = (
            documentId: string | null,
            levels: ReadonlyArray<NotificationPreferenceRow | undefined>
          ): Schema.Schema.Type<typeof NotificationConfigEntry> => ({
            config: resolve(levels),
            metadata: { organizationId, apiKey, documentId, userId }
          })
          return [
            ...(input.getOrganizationConfig === true ? [entry(null, [organizationRow])] : []),
            ...documentIds.map((documentId) =>
              entry(documentId, [rows.find((row) => row.documentId === documentId), organizationRow])
            )
          ]
        }),

      /**
       * Spec notifications/config/set: the given channels are merged into each level's stored config,
       * for every user at every level at once, in SQL (the product of the two lists is capped:
       * MAX_PREFERENCES_PER_CALL).
       */
      set: (apiKey: string, input: typeof SetNotificationConfigInput.Type) =>
        Effect.gen(function*() {
          const { config, documentIds, organizationId } = input
          const channels = { inbox: config.inbox ?? null, email: config.email ?? null, slack: config.slack ?? null }
          // Each pair once (PostgreSQL refuses a statement that would update one row twice), in one order
          // (calls on the same rows at once wait for each other rather than deadlock). The merge is one
          // upsert per row, so a channel set meanwhile by another call is kept: no lock needed.
          const levels = documentIds === undefined ? [null] : [...new Set(documentIds)].sort(compareText)
          const userIds = [...new Set(input.userIds)].sort(compareText)
          yield* withTransaction(repo.merge(apiKey, organizationId, userIds, levels, channels, yield* Clock.currentTimeMillis))
          const data: Record<string, {
            success: boolean
            userId: string
            documentId: string | null
            documentIds?: ReadonlyArray<string>
            message: string
          }> = {}
          for (const userId of input.userIds) {
            data[userId] = {
              success: true,
              userId,
              documentId: documentIds?.length === 1 ? documentIds[0]! : null,
              ...(documentIds !== undefined && { documentIds }),
              message: "User config set successfully."
            }
          }
          return data
        })
    }
  })
}) {}
