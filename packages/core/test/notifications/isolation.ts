import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call, mark }) => {
    await call("/v2/notifications/config/set", { organizationId: "org1", documentIds: ["doc1"], userIds: ["u1"], config: { inbox: "NONE" } })
    for (const notificationId of ["note1", "note2"]) {
      await call("/v2/notifications/add", {
        organizationId: "org1",
        documentId: "doc2",
        notificationId,
        actionUser: { userId: "u2", name: mark },
        displayHeadlineMessageTemplate: mark,
        displayBodyMessage: mark,
        notifyUsers: [{ userId: "u1" }],
        notifyAll: false
      })
    }
    const page = await call("/v2/notifications/get", { organizationId: "org1", documentId: "doc2", pageSize: 1 })
    return { aimed: { notificationId: "note1" }, aimedList: { notificationIds: ["note1", "note2"] }, pageTokens: [page.pageToken] }
  },
  reads: () => [
    ["/v2/notifications/config/get", { organizationId: "org1", userId: "u1", documentIds: ["doc1"] }],
    ["/v2/notifications/get", { organizationId: "org1", documentId: "doc2" }],
    ["/v2/notifications/get", { organizationId: "org1", userId: "u1", view: "all" }]
  ]
}
