import * as Effect from "effect/Effect"
import type { AccessJudge } from "../access/DocumentAccess.js"
import type { TokenResource } from "../tokens/Jwt.js"
import { organizationsToJudge, seesThread, type VisibleThread } from "./CommentVisibility.js"

/** Who reads: a user of the key, with the entries of the token they came with (none: what storage and the provider say). */
export interface ThreadReader {
  readonly apiKey: string
  readonly userId: string
  readonly tokenResources?: ReadonlyArray<TokenResource>
}

/**
 * The threads `reader` may see, of those given: in a document they may read (the access rule;
 * `readable`: documents already checked) and shown to them by the thread's visibility. What the
 * rule answers is kept for the life of the returned function: the client API's calls judge their
 * user with it (ClientComments.ts), notifications judge each recipient (notifications/).
 */
export const threadsSeenBy = (
  access: AccessJudge,
  reader: ThreadReader,
  organizationId: string,
  readable: ReadonlyArray<string> = []
) => {
  const memberships = new Map<string, boolean>()
  const documents = new Map(readable.map((documentId) => [documentId, true]))
  const tokenResources = reader.tokenResources ?? []
  return <R extends VisibleThread & { readonly documentId: string }>(rows: ReadonlyArray<R>): Effect.Effect<ReadonlyArray<R>> =>
    Effect.gen(function*() {
      for (const organization of organizationsToJudge(rows, reader.userId)) {
        if (memberships.has(organization)) continue
        // A user of the organization, as the rule says (its grant or its user groups).
        const decision = yield* access.checkOrganization({ apiKey: reader.apiKey, userId: reader.userId, organizationId: organization, tokenResources })
        memberships.set(organization, decision.accessRole !== null)
      }
      for (const documentId of new Set(rows.map((row) => row.documentId))) {
        if (documents.has(documentId)) continue
        const decision = yield* access.check({ apiKey: reader.apiKey, userId: reader.userId, organizationId, documentId, tokenResources })
        documents.set(documentId, decision.accessRole !== null)
      }
      return rows.filter((row) =>
        documents.get(row.documentId) === true && seesThread(row, reader.userId, (organization) => memberships.get(organization) === true)
      )
    })
}
