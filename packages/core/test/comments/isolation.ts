import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call, mark }) => {
    const org = { organizationId: "org1", documentId: "doc1" }
    await call("/v2/commentannotations/add", {
      ...org,
      commentAnnotations: [
        { annotationId: "t1", commentData: [{ commentId: 1, commentText: `${mark} comment`, from: { userId: "u1" } }] },
        { annotationId: "t2", commentData: [{ commentId: 1, commentText: `${mark} comment2`, from: { userId: "u1" } }] }
      ]
    })
    await call("/v2/commentannotations/comments/reactions/add", { ...org, annotationId: "t1", commentId: 1, reaction: { reactionId: "HEART" }, from: { userId: "u1" } })
    const threads = (await call("/v2/commentannotations/get", { organizationId: "org1", pageSize: 1 })).nextPageToken as string
    return {
      aimed: { annotationId: "t1", commentId: 1, locationId: "t1" },
      aimedList: { annotationIds: ["t1", "t2"], commentIds: [1] },
      pageTokens: [threads],
      tokens: { threads }
    }
  },
  reads: () => [
    ["/v2/commentannotations/get", { organizationId: "org1" }],
    ["/v2/commentannotations/count/get", { organizationId: "org1", documentIds: ["doc1"], userId: "u1" }]
  ]
}
