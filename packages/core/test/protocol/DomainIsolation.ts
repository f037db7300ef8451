/**
 * What the isolation suite (isolation.test.ts) needs from each domain: key A's data of that domain,
 * the ids and tokens key B aims at it, and A's reads of it. Each domain declares its own in
 * `test/<domain>/isolation.ts`; the suite loads one per descriptor (src/domains.ts), in the list's
 * order, so a domain without one fails it.
 */

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
