import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  // After webhooks/: A's advanced webhooks are enabled, with two endpoints.
  seed: async ({ call, mark }) => {
    const message = (await call("/v2/workspace/advancedwebhook/messages/create", { eventType: "a.event", payload: { note: mark } })).data
    await call("/v2/workspace/advancedwebhook/messages/create", { eventType: "a.event", payload: { note: mark } })
    const messages = (await call("/v2/workspace/advancedwebhook/messages/get", { limit: 1 })).data.iterator as string
    return { aimed: { messageId: message.messageId }, aimedList: { messageIds: [message.messageId] }, tokens: { messages } }
  },
  reads: () => [["/v2/workspace/advancedwebhook/messages/get", {}]]
}
