/**
 * What the isolation suite (isolation.test.ts) needs from each domain: key A's data of that domain,
 * the ids and tokens key B aims at it, and A's reads of it. Each domain declares its own in
 * `test/<domain>/isolation.ts`; the suite loads one per descriptor (src/domains.ts), in the list's
 * order, so a domain without one fails it.
 */

import { domains } from "../../src/domains.js"
import type { TestResponse } from "../../src/testing/Harness.js"

/** The calls a domain's seed makes as key A: `call` fails the test unless A's call succeeded, and gives its `result`. */
export interface SeedContext {
  readonly call: (path: string, data: unknown) => Promise<TestResponse["body"]>
  /** The text every string A stores carries: no answer to B may contain it. */
  readonly mark: string
  /** A's credentials, for the ids that name them. */
  readonly apiKey: string
  readonly workspaceId: string
  /** What the domains before this one kept (their `aimed` values): ids this domain's data refers to. */
  readonly kept: Readonly<Record<string, unknown>>
}

/** What a domain's seed keeps of A's data. */
export interface Seeded {
  /** Id-like fields B's bodies set to A's value (`documentId: "doc1"`); later domains' seeds and reads see them in `kept`. */
  readonly aimed?: Readonly<Record<string, unknown>>
  /** List fields B's bodies set to A's ids (`documentIds: ["doc1", "doc2"]`). */
  readonly aimedList?: Readonly<Record<string, ReadonlyArray<unknown>>>
  /** A's page tokens of a page of one where there are two: B sends each as `{ organizationId, pageToken }`. */
  readonly pageTokens?: ReadonlyArray<string>
  /** A's other tokens (iterators, cursors): each must be a string, for B to aim where `aimed` puts it. */
  readonly tokens?: Readonly<Record<string, string>>
  /** Strings besides the mark that no answer to B may contain (a secret, a host name, a token). */
  readonly secrets?: ReadonlyArray<string>
}

export interface DomainIsolation {
  /** Stores A's data of this domain, every text marked. */
  readonly seed: (context: SeedContext) => Promise<Seeded>
  /**
   * A's reads of its data (path, body), answered the same before and after B's calls; `kept` holds
   * every domain's `aimed` values. None: say why beside an empty list.
   */
  readonly reads: (kept: Readonly<Record<string, unknown>>) => ReadonlyArray<readonly [string, unknown]>
}

/**
 * Every descriptor's isolation (`test/<domain>/isolation.ts`), in the domains' order: the isolation
 * suite's, and the seeds other table-wide suites store (access/every-write-emits.test.ts). A domain
 * without one fails.
 */
export const domainIsolations = (): Promise<ReadonlyArray<DomainIsolation>> =>
  Promise.all(domains.map(async (domain): Promise<DomainIsolation> => {
    const module = await import(`../${domain.name}/isolation.ts`).catch(() => undefined) as { isolation?: DomainIsolation } | undefined
    if (module?.isolation === undefined) throw new Error(`test/${domain.name}/isolation.ts declares no isolation seeds for the domain ${domain.name}`)
    return module.isolation
  }))

/**
 * A body aimed at the seeded data: every id-like field the seeds kept (`aimed`) set to their value
 * where the body has one of its type, every list field (`aimedList`) to their list.
 */
export const aimAt = (aimed: Readonly<Record<string, unknown>>, aimedList: Readonly<Record<string, ReadonlyArray<unknown>>>) => {
  const aim = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(aim)
    if (typeof value !== "object" || value === null) return value
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) {
      out[key] = key in aimed && typeof inner === typeof aimed[key] ? aimed[key]
        : key in aimedList && Array.isArray(inner) ? aimedList[key]
        : aim(inner)
    }
    return out
  }
  return aim
}
