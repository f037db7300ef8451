/**
 * The one rule that decides what a user may do with a document (issue 23; spec client-api.md,
 * "Access"; ../shared/DECISIONS.md, "Access"). Pure: the facts are gathered by the caller (the
 * access service reads storage, the token and the permission provider), so every path that needs
 * the answer — the client API, realtime, notification recipients, auth/permissions/get — asks
 * the same function, and the table test can state every row of the order.
 */

import type { AccessType } from "../folders/FoldersRepo.js"

export type { AccessType }
export type AccessRole = "editor" | "viewer"

/** A grant of a role on one resource, from the token's `permissions.resources` or stored by the server API. */
export interface Grant {
  readonly level: "document" | "folder" | "organization"
  readonly id: string
  readonly accessRole: AccessRole
  /** Epoch ms; past it the grant does not count. */
  readonly expiresAt?: number | undefined
}

export interface AccessFacts {
  readonly organizationId: string
  readonly organizationDisabled: boolean
  /** The document asked about; undefined when the question is about a folder (the first of `folderChain`). */
  readonly documentId: string | undefined
  readonly documentDisabled: boolean
  /** The document's folder and its ancestors, nearest first; empty at the root. */
  readonly folderChain: ReadonlyArray<string>
  /** The document's access type once inheritance is applied (its own, else its folders', else the key's default). */
  readonly accessType: AccessType
  /** Whether the user is a member of the organization. */
  readonly member: boolean
  /** The permission provider's answer when it is enabled (null role: denied or failed); undefined when it is not. */
  readonly provider?: { readonly accessRole: AccessRole | null; readonly failed?: boolean } | undefined
  /** The token's entries (they win over a stored grant at the same place). */
  readonly tokenGrants: ReadonlyArray<Grant>
  /** The grants stored by the server API. Two lists, so neither is copied into the other per check. */
  readonly storedGrants: ReadonlyArray<Grant>
  readonly now: number
}

export type AccessReason =
  | "organization disabled"
  | "permission provider"
  | "permission provider failed"
  | "document grant"
  | "folder grant"
  | "organization grant"
  | "public document"
  | "organization member"
  | "not an organization member"
  | "restricted document"

export interface AccessDecision {
  readonly accessRole: AccessRole | null
  /** When the grant that decided expires (epoch ms), if it does. */
  readonly expiresAt?: number
  /** Why, for logs and auth/permissions/get; a disabled document adds `readOnly`. */
  readonly reason: AccessReason
  /** The document is disabled: whatever the rest gave is at most `viewer`. */
  readonly readOnly: boolean
}

/**
 * How specific a grant is for this question: 0 on the document, 1 + i on the i-th folder of the
 * chain (nearest first), then the organization; undefined when it speaks of something else.
 */
const rankOf = (grant: Grant, facts: AccessFacts): number | undefined => {
  switch (grant.level) {
    case "document":
      return grant.id === facts.documentId ? 0 : undefined
    case "folder": {
      const at = facts.folderChain.indexOf(grant.id)
      return at === -1 ? undefined : 1 + at
    }
    case "organization":
      return grant.id === facts.organizationId ? 1 + facts.folderChain.length : undefined
  }
}

/** Whether a grant counts now. */
export const isLive = (grant: Grant, now: number): boolean => grant.expiresAt === undefined || grant.expiresAt > now

/**
 * The most specific live grant, in one pass over each list without allocating (a token may carry
 * 100 entries): the token's first, so at the same place its entry wins over a stored grant.
 */
const decidingGrant = (facts: AccessFacts): Grant | undefined => {
  let best: Grant | undefined
  let bestRank = Infinity
  for (const grants of [facts.tokenGrants, facts.storedGrants]) {
    for (const grant of grants) {
      if (!isLive(grant, facts.now)) continue
      const rank = rankOf(grant, facts)
      if (rank !== undefined && rank < bestRank) {
        best = grant
        bestRank = rank
      }
    }
  }
  return best
}

/** Steps 3 to 5 of the order: the role before a disabled document caps it. */
const byGrant = (grant: Grant, reason: AccessReason): Pick<AccessDecision, "accessRole" | "reason" | "expiresAt"> =>
  grant.expiresAt === undefined ? { accessRole: grant.accessRole, reason } : { accessRole: grant.accessRole, reason, expiresAt: grant.expiresAt }

const undisabled = (facts: AccessFacts): Pick<AccessDecision, "accessRole" | "reason" | "expiresAt"> => {
  if (facts.provider !== undefined) {
    return { accessRole: facts.provider.accessRole, reason: facts.provider.failed ? "permission provider failed" : "permission provider" }
  }
  const grant = decidingGrant(facts)
  if (grant !== undefined) return byGrant(grant, `${grant.level} grant`)
  switch (facts.accessType) {
    case "public":
      return { accessRole: "editor", reason: "public document" }
    case "organizationPrivate":
      return facts.member ? { accessRole: "editor", reason: "organization member" } : { accessRole: null, reason: "not an organization member" }
    case "restricted":
      return { accessRole: null, reason: "restricted document" }
  }
}

/** What the user may do with the document: `editor`, `viewer` or nothing (`null`), and why. */
export const decideAccess = (facts: AccessFacts): AccessDecision => {
  if (facts.organizationDisabled) return { accessRole: null, reason: "organization disabled", readOnly: false }
  const decided = undisabled(facts)
  return facts.documentDisabled && decided.accessRole === "editor"
    ? { ...decided, accessRole: "viewer", readOnly: true }
    : { ...decided, readOnly: facts.documentDisabled }
}
