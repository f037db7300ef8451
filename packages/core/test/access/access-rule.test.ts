/**
 * The access rule's order (spec client-api.md, "Access"), row by row: each step alone, and each
 * against the next, so a step that moved in the order fails here. The rule is pure; the access
 * service's tests check that the facts it gathers from storage, tokens and the provider are right.
 */
import { describe, expect, it } from "vitest"
import { type AccessFacts, type Grant, decideAccess } from "../../src/access/AccessRule.js"

const NOW = 1_750_000_000_000
/** A row's facts: its grants say where they come from, and go to the rule's two lists. */
type RowFacts = Partial<Omit<AccessFacts, "tokenGrants" | "storedGrants">> & { readonly grants?: ReadonlyArray<RowGrant> }
type RowGrant = Grant & { readonly source: "token" | "stored" }
const base: AccessFacts = {
  organizationId: "org",
  organizationDisabled: false,
  documentId: "doc",
  documentDisabled: false,
  folderChain: ["inner", "outer"],
  accessType: "restricted",
  member: true,
  tokenGrants: [],
  storedGrants: [],
  now: NOW
}
const grant = (level: Grant["level"], id: string, accessRole: Grant["accessRole"], more: Partial<RowGrant> = {}): RowGrant => ({
  level,
  id,
  accessRole,
  source: "stored",
  ...more
})

const factsOf = ({ grants = [], ...rest }: RowFacts): AccessFacts => ({
  ...base,
  ...rest,
  tokenGrants: grants.filter((g) => g.source === "token"),
  storedGrants: grants.filter((g) => g.source === "stored")
})

const rows: ReadonlyArray<readonly [string, RowFacts, ReturnType<typeof decideAccess>]> = [
  // 1. A disabled organization: nothing, whatever else says.
  ["organization disabled, with an editor grant and a public document", { organizationDisabled: true, accessType: "public", grants: [grant("document", "doc", "editor")] }, { accessRole: null, reason: "organization disabled", readOnly: false }],
  ["organization disabled beats the provider's editor", { organizationDisabled: true, provider: { accessRole: "editor" } }, { accessRole: null, reason: "organization disabled", readOnly: false }],
  // 2. A disabled document: read only.
  ["document disabled caps an editor grant at viewer", { documentDisabled: true, grants: [grant("document", "doc", "editor")] }, { accessRole: "viewer", reason: "document grant", readOnly: true }],
  ["document disabled keeps a viewer a viewer", { documentDisabled: true, grants: [grant("folder", "inner", "viewer")] }, { accessRole: "viewer", reason: "folder grant", readOnly: true }],
  ["document disabled gives nothing to who had nothing", { documentDisabled: true }, { accessRole: null, reason: "restricted document", readOnly: true }],
  ["document disabled caps the provider's editor", { documentDisabled: true, provider: { accessRole: "editor" } }, { accessRole: "viewer", reason: "permission provider", readOnly: true }],
  // 3. The provider decides when enabled, over every grant and access type; failing is denying.
  ["the provider's viewer beats a document editor grant", { provider: { accessRole: "viewer" }, grants: [grant("document", "doc", "editor", { source: "token" })] }, { accessRole: "viewer", reason: "permission provider", readOnly: false }],
  ["the provider's denial beats a public document", { provider: { accessRole: null }, accessType: "public" }, { accessRole: null, reason: "permission provider", readOnly: false }],
  ["a failed provider is no access (fail closed)", { provider: { accessRole: null, failed: true }, accessType: "public" }, { accessRole: null, reason: "permission provider failed", readOnly: false }],
  ["the provider's editor on a restricted document", { provider: { accessRole: "editor" } }, { accessRole: "editor", reason: "permission provider", readOnly: false }],
  // 4. The most specific grant: document over folder (nearest first) over organization.
  ["organization editor + document viewer: viewer", { grants: [grant("organization", "org", "editor"), grant("document", "doc", "viewer")] }, { accessRole: "viewer", reason: "document grant", readOnly: false }],
  ["organization viewer + document editor: editor", { grants: [grant("organization", "org", "viewer"), grant("document", "doc", "editor")] }, { accessRole: "editor", reason: "document grant", readOnly: false }],
  ["the nearest folder wins over the outer one", { grants: [grant("folder", "outer", "editor"), grant("folder", "inner", "viewer")] }, { accessRole: "viewer", reason: "folder grant", readOnly: false }],
  ["an outer folder's grant counts when the inner has none", { grants: [grant("folder", "outer", "viewer")] }, { accessRole: "viewer", reason: "folder grant", readOnly: false }],
  ["a folder grant wins over the organization's", { grants: [grant("organization", "org", "editor"), grant("folder", "outer", "viewer")] }, { accessRole: "viewer", reason: "folder grant", readOnly: false }],
  ["the organization grant alone", { grants: [grant("organization", "org", "viewer")] }, { accessRole: "viewer", reason: "organization grant", readOnly: false }],
  ["a grant on a folder outside the chain does not count", { grants: [grant("folder", "elsewhere", "editor")] }, { accessRole: null, reason: "restricted document", readOnly: false }],
  ["a grant on another document does not count", { grants: [grant("document", "other", "editor")] }, { accessRole: null, reason: "restricted document", readOnly: false }],
  ["a grant on another organization does not count", { grants: [grant("organization", "other-org", "editor")] }, { accessRole: null, reason: "restricted document", readOnly: false }],
  ["at one level the token's entry wins over a stored grant", { grants: [grant("document", "doc", "editor"), grant("document", "doc", "viewer", { source: "token" })] }, { accessRole: "viewer", reason: "document grant", readOnly: false }],
  ["...in either order", { grants: [grant("document", "doc", "viewer", { source: "token" }), grant("document", "doc", "editor")] }, { accessRole: "viewer", reason: "document grant", readOnly: false }],
  ["an expired document entry falls back to the folder grant", { grants: [grant("document", "doc", "editor", { source: "token", expiresAt: NOW - 1 }), grant("folder", "inner", "viewer")] }, { accessRole: "viewer", reason: "folder grant", readOnly: false }],
  ["an entry expiring exactly now has expired", { grants: [grant("document", "doc", "editor", { expiresAt: NOW })] }, { accessRole: null, reason: "restricted document", readOnly: false }],
  ["an entry expiring later counts, and says when it ends", { grants: [grant("document", "doc", "viewer", { expiresAt: NOW + 1 })] }, { accessRole: "viewer", reason: "document grant", readOnly: false, expiresAt: NOW + 1 }],
  ["a question about a folder: the folder's own grant first", { documentId: undefined, folderChain: ["inner", "outer"], grants: [grant("document", "doc", "editor"), grant("folder", "outer", "editor"), grant("folder", "inner", "viewer")] }, { accessRole: "viewer", reason: "folder grant", readOnly: false }],
  ["an expired token entry lets the stored grant at the same level count", { grants: [grant("document", "doc", "viewer", { source: "token", expiresAt: NOW - 1 }), grant("document", "doc", "editor")] }, { accessRole: "editor", reason: "document grant", readOnly: false }],
  ["a grant beats a public access type", { accessType: "public", grants: [grant("document", "doc", "viewer")] }, { accessRole: "viewer", reason: "document grant", readOnly: false }],
  // 5. No grant: the access type.
  ["public: editor for any user of the key", { accessType: "public", member: false }, { accessRole: "editor", reason: "public document", readOnly: false }],
  ["organizationPrivate: editor for a member", { accessType: "organizationPrivate", member: true }, { accessRole: "editor", reason: "organization member", readOnly: false }],
  ["organizationPrivate: nothing for a non-member", { accessType: "organizationPrivate", member: false }, { accessRole: null, reason: "not an organization member", readOnly: false }],
  ["restricted: nothing, even for a member", { accessType: "restricted", member: true }, { accessRole: null, reason: "restricted document", readOnly: false }]
]

describe("the access rule", () => {
  for (const [name, facts, expected] of rows) {
    it(name, () => expect(decideAccess(factsOf(facts))).toEqual(expected))
  }
})
