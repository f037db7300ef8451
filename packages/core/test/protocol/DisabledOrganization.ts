/**
 * How a domain's operations keep a disabled organization's data closed, for the operations whose
 * row does not name the organization (or may be called without one): the disabled-organization
 * suite (disabled-organization.test.ts) reads `test/<domain>/disabledOrganization.ts` for every
 * descriptor of src/domains.ts, and fails an operation that neither names its organization nor is
 * listed here. An operation whose row names the organization every time needs no entry: the
 * dispatcher refuses it while that organization is disabled (the same suite checks every such row).
 */

import type { TestResponse } from "../../src/testing/Harness.js"

/** A key's call: fails the test unless it succeeded, and gives its `result`. */
export type Call = (path: string, data: unknown) => Promise<TestResponse["body"]>

/** What a seed may ask of the server beside calls: the steps no operation takes. */
export interface Server {
  /** Makes every webhook delivery due now (the delivery worker's step: attempts come from it, not from a call). */
  readonly runDue: () => Promise<unknown>
}

/** A read across organizations, checked: the suite seeds two organizations, disables one, and calls the operation. */
export interface AcrossOrganizations {
  /** Stores data of `organizationId`, every text carrying `mark`; called once per organization. */
  readonly seed: (call: Call, organizationId: string, mark: string, server: Server) => Promise<void>
  /** The call's body: no organization named. Its answer must carry the enabled organization's mark and nothing of the disabled one. */
  readonly body: unknown
}

export interface DisabledOrganization {
  /** Operations that read and write no organization's data (workspace settings, …), each with why. */
  readonly noOrganizationData?: Readonly<Record<string, string>>
  /**
   * Operations that decide for themselves, each with the ruling (docs/decisions.md, "Access"): open on
   * purpose, or naming organizations per item, which their service checks.
   */
  readonly ruled?: Readonly<Record<string, string>>
  /** Reads that may span organizations: each leaves a disabled organization's data out, checked over HTTP. */
  readonly acrossOrganizations?: Readonly<Record<string, AcrossOrganizations>>
}
