import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call, mark }) => {
    await call("/v2/users/add", { organizationId: "org1", documentId: "doc1", users: [{ userId: "u1", name: `${mark} user`, email: "u1@a.example.com" }] })
    await call("/v2/users/add", { organizationId: "org1", users: [{ userId: "u1", name: `${mark} user`, email: "u1@a.example.com" }, { userId: "u2", name: `${mark} user2` }] })
    await call("/v2/organizations/usergroups/add", { organizationId: "org1", organizationUserGroups: [{ groupId: "g1", groupName: `${mark} group` }] })
    await call("/v2/organizations/usergroups/users/add", { organizationId: "org1", organizationUserGroupId: "g1", userIds: ["u1"] })
    return { aimed: { userId: "u1", groupId: "g1", organizationUserGroupId: "g1" }, aimedList: { userIds: ["u1", "u2"], groupIds: ["g1"] } }
  },
  reads: () => [
    ["/v2/users/get", { organizationId: "org1" }],
    ["/v2/users/get", { organizationId: "org1", documentId: "doc1" }]
  ]
}
