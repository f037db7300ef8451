import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call, mark }) => {
    await call("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
    const endpoint = (await call("/v2/workspace/advancedwebhook/endpoints/create", { url: "https://a-only.example.com/hooks", description: mark })).data
    await call("/v2/workspace/advancedwebhook/endpoints/create", { url: "https://a-only.example.com/hooks2", description: mark })
    const { secret } = (await call("/v2/workspace/advancedwebhook/endpoints/secret/get", { endpointId: endpoint.id })).data
    const iterator = (await call("/v2/workspace/advancedwebhook/endpoints/get", { limit: 1 })).data.iterator as string
    return {
      aimed: { endpointId: endpoint.id, iterator, prevIterator: iterator },
      aimedList: { endpointIds: [endpoint.id] },
      tokens: { iterator },
      secrets: [secret, "a-only.example.com"]
    }
  },
  reads: ({ endpointId }) => [
    ["/v2/workspace/advancedwebhookconfig/get", {}],
    ["/v2/workspace/advancedwebhook/endpoints/get", {}],
    ["/v2/workspace/advancedwebhook/endpoints/secret/get", { endpointId }]
  ]
}
