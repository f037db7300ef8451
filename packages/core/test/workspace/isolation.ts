import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ apiKey, call, mark, workspaceId }) => {
    await call("/v2/workspace/domains/add", { domains: ["a-only.example.com"] })
    await call("/v2/workspace/permissionproviderconfig/update", {
      usePermissionProvider: true,
      permissionProviderConfig: { permissionProviderUrl: "https://a-only.example.com/permissions", authToken: mark }
    })
    await call("/v2/workspace/apikeyconfig/update", { defaultDocumentAccessType: "organizationPrivate" })
    return { aimed: { apiKey, workspaceId }, secrets: ["a-only.example.com"] }
  },
  reads: () => [
    ["/v2/workspace/domains/get", {}],
    ["/v2/workspace/permissionproviderconfig/get", {}],
    ["/v2/workspace/apikeyconfig/get", {}]
  ]
}
