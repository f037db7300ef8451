/** One scope's batching (the notification service's `batchConfig.document` or `.user`). */
export interface BatchRule {
  readonly isEnabled: boolean
  readonly batchWindowSeconds: number
  readonly maxActivities: number
}

/** What the plan needs of a waiting item. */
export interface Batchable {
  readonly organizationId: string
  readonly documentId: string
  readonly dueAt: number
}

export interface Plan<A> {
  /** Each email to send now: one item, or a digest of several, with the scope that closed it. */
  readonly sends: ReadonlyArray<{ readonly scope: "single" | "document" | "user"; readonly items: ReadonlyArray<A> }>
  /** When the first digest still open closes: the items left are looked at again then. */
  readonly nextCheckAt: number | undefined
}

interface Group<A> {
  readonly scope: "document" | "user"
  readonly rule: BatchRule
  items: Array<A>
}

/** When the group's digest closes: its window after its first item, or on its `maxActivities`-th item, whichever is first. */
const closesAt = <A extends Batchable>(group: Group<A>): number => {
  const { batchWindowSeconds, maxActivities } = group.rule
  const byWindow = group.items[0]!.dueAt + batchWindowSeconds * 1000
  return group.items.length >= maxActivities ? Math.min(byWindow, group.items[maxActivities - 1]!.dueAt) : byWindow
}

/**
 * The emails one recipient's due items (in due order) make by `now` (docs/notifications.md,
 * "Delay and digests"). Without batching, one email each. With document batching, the items of a
 * document gather into one digest; with user batching, all of them; a digest's window opens with
 * the first item still waiting for it (so no item waits more than one window once due) and it
 * closes when the window ends or it holds `maxActivities`. With both on, an
 * item sits in both and goes with whichever closes first, never twice: digests close in the order
 * of their closing times, each taking its items out of the other.
 */
export const planDigests = <A extends Batchable>(
  due: ReadonlyArray<A>,
  rules: { readonly document: BatchRule; readonly user: BatchRule },
  now: number
): Plan<A> => {
  if (!rules.document.isEnabled && !rules.user.isEnabled) {
    return { sends: due.map((item) => ({ scope: "single", items: [item] })), nextCheckAt: undefined }
  }
  const groups: Array<Group<A>> = []
  if (rules.document.isEnabled) {
    const byDocument = new Map<string, Group<A>>()
    for (const item of due) {
      const key = JSON.stringify([item.organizationId, item.documentId])
      const group = byDocument.get(key) ?? { scope: "document" as const, rule: rules.document, items: [] }
      group.items.push(item)
      byDocument.set(key, group)
    }
    groups.push(...byDocument.values())
  }
  if (rules.user.isEnabled) groups.push({ scope: "user", rule: rules.user, items: [...due] })

  const sends: Array<Plan<A>["sends"][number]> = []
  for (;;) {
    const open = groups.filter((group) => group.items.length > 0)
    if (open.length === 0) return { sends, nextCheckAt: undefined }
    // The first to close; on a tie the document's (it is listed first).
    let first = open[0]!
    for (const group of open) if (closesAt(group) < closesAt(first)) first = group
    const closing = closesAt(first)
    if (closing > now) return { sends, nextCheckAt: closing }
    const taken = first.items.filter((item) => item.dueAt <= closing).slice(0, first.rule.maxActivities)
    const gone = new Set(taken)
    for (const group of groups) group.items = group.items.filter((item) => !gone.has(item))
    sends.push({ scope: taken.length === 1 ? "single" : first.scope, items: taken })
  }
}
