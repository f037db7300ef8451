import * as Layer from "effect/Layer"
import { defineDomain } from "../Domain.js"
import { ClientComments } from "./ClientComments.js"
import { clientCommentOperations } from "./clientOperations.js"
import { Comments } from "./Comments.js"
import { commentOperations } from "./operations.js"
import { SqlCommentsRepo } from "./SqlCommentsRepo.js"

const common = { apiKey: "api_key", organization: "organization_id" } as const

/** Comment threads (annotations), their comments, reactions and read markers. */
export const commentsDomain = defineDomain({
  name: "comments",
  operations: [...commentOperations, ...clientCommentOperations],
  // The client's service acts through Comments: the same Layer, so one instance of it (Layers are shared by reference).
  services: [Comments.Default, ClientComments.Default.pipe(Layer.provide(Comments.Default))],
  repositories: [SqlCommentsRepo],
  dataTables: [
    {
      // Threads the user started go whole: their other comments answer the user's first one.
      name: "comment_annotations",
      ...common,
      user: "created_by",
      document: "document_id",
      json: ["record"],
      children: ["comments", "comment_reactions", "comment_reads"].map((table) => ({
        table,
        on: [["api_key", "api_key"], ["organization_id", "organization_id"], ["annotation_id", "id"]] as const
      }))
    },
    {
      // The user's comments in other people's threads, with the reactions to them.
      name: "comments",
      ...common,
      user: "created_by",
      json: ["record"],
      children: [{
        table: "comment_reactions",
        on: [["api_key", "api_key"], ["organization_id", "organization_id"], ["annotation_id", "annotation_id"], ["comment_id", "id"]]
      }]
    },
    { name: "comment_reactions", ...common, user: "user_id", json: ["record"], exportAs: "reactions" },
    { name: "comment_reads", ...common, user: "user_id" }
  ],
  tags: [{ name: "commentannotations", description: "Comment threads, their comments, reactions, read markers and counts." }]
})
