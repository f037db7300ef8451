import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  // A token is A's credential for its user: B's calls must never be answered with it.
  seed: async ({ call, mark }) => {
    const { token } = (await call("/v2/auth/generate_token", {
      userId: "u1",
      userProperties: { name: `${mark} token`, email: "u1@a.example.com" },
      permissions: { resources: [{ type: "document", id: "doc1", organizationId: "org1", accessRole: "editor" }] }
    })).data
    return { secrets: [token] }
  },
  // Tokens are not stored (only the signing key, shared by every key: the JWKS), so there is nothing of A's to read back.
  reads: () => []
}
