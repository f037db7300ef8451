import type { AnnotationRow } from "./CommentsRepo.js"

/** What the visibility rule reads of a thread: who started it, and its stored visibility. */
export type VisibleThread = Pick<AnnotationRow, "createdBy"> & { readonly record: Pick<AnnotationRow["record"], "visibilityConfig"> }

/**
 * Whether `userId` may see the thread, as far as its visibility goes (the document's access is
 * the access rule's, asked apart): `public`, yes; `restricted`, when the thread lists the user;
 * `organizationPrivate`, when the user belongs to the organization it names (`memberOf`). Its
 * author always sees it (the facts: the author is always among a private thread's users).
 * docs/decisions.md, "Client API".
 */
export const seesThread = (thread: VisibleThread, userId: string, memberOf: (organizationId: string) => boolean): boolean => {
  const visibility = thread.record.visibilityConfig
  switch (visibility.type) {
    case "public":
      return true
    case "restricted":
      return thread.createdBy === userId || (visibility.userIds ?? []).includes(userId)
    case "organizationPrivate":
      return thread.createdBy === userId || (visibility.organizationId !== undefined && memberOf(visibility.organizationId))
  }
}

/** The organizations whose membership `seesThread` needs to judge these threads for `userId`: each once. */
export const organizationsToJudge = (threads: ReadonlyArray<VisibleThread>, userId: string): ReadonlyArray<string> => {
  const organizations = new Set<string>()
  for (const thread of threads) {
    const visibility = thread.record.visibilityConfig
    if (visibility.type === "organizationPrivate" && visibility.organizationId !== undefined && thread.createdBy !== userId) {
      organizations.add(visibility.organizationId)
    }
  }
  return [...organizations]
}
