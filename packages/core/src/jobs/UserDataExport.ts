import * as Effect from "effect/Effect"
import { type PageScope, PageTokens } from "../protocol/PageTokens.js"
import { JobDataPort } from "./JobDataPort.js"
import type { UserDataExportInput } from "./JobSchemas.js"

/** Records of each kind one page gives (the hosted service's "each at most 100 items"). */
export const EXPORT_PAGE_SIZE = 100

/** Where each kind's next page starts: after a row's primary key, or `true` once the kind is done. */
type ExportCursor = Readonly<Record<string, ReadonlyArray<unknown> | true>>

/** One page of a user's data: every kind's records, and the next page's token (null on the last). */
export interface UserDataExportPage {
  readonly data: Readonly<Record<string, ReadonlyArray<Readonly<Record<string, unknown>>>>>
  readonly nextPageToken: string | null
}

/**
 * users/data/get (docs/compatibility.md, "Jobs"): every record of a user, the very rows
 * users/data/delete removes (one rule: `JobDataPort`'s user rows), in one JSON document per page.
 * Each kind of data is listed under its name (the hosted `comments`, `reactions` and
 * `notifications` among them; `recordings` is always empty: Atrium keeps none), at most 100 per
 * page in primary-key order, each kind paging on its own; the page token carries every kind's
 * position, bound to the key, the user and the organization.
 */
export class UserDataExport extends Effect.Service<UserDataExport>()("@atrium/core/UserDataExport", {
  effect: Effect.gen(function*() {
    const data = yield* JobDataPort
    const pageTokens = yield* PageTokens

    return {
      page: (apiKey: string, input: typeof UserDataExportInput.Type) =>
        Effect.gen(function*() {
          const { organizationId, userId } = input
          const scope: PageScope = { apiKey, operation: "users.data.get", filters: { organizationId, userId } }
          const cursor = input.pageToken === undefined ? {} : (yield* pageTokens.decode(scope, input.pageToken)) as ExportCursor
          const next: Record<string, ReadonlyArray<unknown> | true> = {}
          const out: Record<string, Array<Readonly<Record<string, unknown>>>> = { recordings: [] }
          for (const { exportAs, kind } of data.userData) {
            const position = cursor[kind]
            const records = out[exportAs] ??= []
            if (position === true) {
              next[kind] = true
              continue
            }
            // One more than a page, to learn whether the kind has more.
            const rows = yield* data.exportUserData(apiKey, userId, organizationId, kind, position, EXPORT_PAGE_SIZE + 1)
            const page = rows.slice(0, EXPORT_PAGE_SIZE)
            records.push(...page.map((row) => row.record))
            next[kind] = rows.length > EXPORT_PAGE_SIZE ? page[page.length - 1]!.key : true
          }
          const done = Object.values(next).every((position) => position === true)
          return { data: out, nextPageToken: done ? null : yield* pageTokens.encode(scope, next) } satisfies UserDataExportPage
        })
    }
  })
}) {}
