/**
 * The comments service as a host calls it, and the schemas of what it stores and answers:
 * methods return threads, comments and ids (the operation rows make the wire answers); stored
 * records are decoded with the read schemas; the output schemas type every field a read answers.
 */
import { Comments } from "@atrium/core"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as JSONSchema from "effect/JSONSchema"
import * as Schema from "effect/Schema"
import { expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { AnnotationRecord, CommentAnnotation, CommentRecord, ReactionRecord } from "../../src/comments/CommentSchemas.js"
import { makeStoredDecoder } from "../../src/schema/StoredDecoder.js"

forEachBackend("comments service", (ctx: () => Started) => {
  const inDoc = { organizationId: "org", documentId: "doc", createOrganization: true, createDocument: true }

  it("answers a host domain values, not envelopes", async () => {
    const creds = await ctx().workspace()
    const run = <A, E>(effect: Effect.Effect<A, E, Comments>) => ctx().atrium.runtime.runPromise(effect)
    const threads = await run(Comments.addAnnotations(creds.apiKey, {
      ...inDoc,
      commentAnnotations: [{ annotationId: "t", commentData: [{ commentId: 1, commentText: "first", from: { userId: "alice" } }] }]
    }))
    expect(threads).toMatchObject([{ annotationId: "t", from: { userId: "alice" }, comments: [{ commentId: 1, commentText: "first", status: "added" }] }])
    expect(threads[0]).not.toHaveProperty("status", "success")

    const added = await run(Comments.addComments(creds.apiKey, { ...inDoc, annotationId: "t", commentData: [{ commentId: 2, commentText: "reply", from: { userId: "bob" } }] }))
    expect(added).toMatchObject([{ commentId: 2, commentText: "reply", from: { userId: "bob" }, reactionAnnotations: [] }])

    const page = await run(Comments.getAnnotations(creds.apiKey, { organizationId: "org", annotationIds: ["t", "gone"] }))
    expect(page.next).toBeUndefined()
    expect(page.items.map((thread) => thread?.comments.map((c) => c.commentText) ?? null)).toEqual([["first", "reply"], null])

    expect(await run(Comments.updateComments(creds.apiKey, { organizationId: "org", documentId: "doc", annotationId: "t", commentIds: [2, 9], updatedData: { commentText: "edited" } })))
      .toEqual([2])
    expect(await run(Comments.addReaction(creds.apiKey, { organizationId: "org", documentId: "doc", annotationId: "t", commentId: 1, reaction: { reactionId: "UP" }, from: { userId: "bob" } })))
      .toBe("t:1:UP")
    expect(await run(Comments.countAnnotations(creds.apiKey, { organizationId: "org", documentIds: ["doc"], userId: "bob" }))).toEqual({ doc: { total: 1, unread: 1 } })
    expect(await run(Comments.deleteAnnotations(creds.apiKey, { organizationId: "org", documentId: "doc" }))).toEqual(["t"])
  })
})

it("decodes a stored record on the compiled path, drops keys no version wrote, and refuses one that is not a record", () => {
  const decode = makeStoredDecoder(CommentRecord)
  const stored = { taggedUserContacts: [], attachments: [], commentText: "hi", from: { userId: "u", team: "x" }, status: "added" }
  expect(decode(stored)).toEqual(stored)
  expect(decode({ ...stored, stray: 1 })).toEqual(stored)
  expect(() => decode({ ...stored, from: undefined })).toThrow()
  expect(() => makeStoredDecoder(AnnotationRecord)({ type: "comment" })).toThrow()
})

it("decodes stored records as Effect's decoder does, valid or not", () => {
  const agreesWithEffect = <A, I>(schema: Schema.Schema<A, I, never>) => {
    const stored = makeStoredDecoder(schema)
    const effect = Schema.decodeUnknownSync(schema)
    const outcome = (decode: (u: unknown) => unknown, value: unknown) => {
      try {
        return { value: decode(value) }
      } catch {
        return "throws"
      }
    }
    // What storage hands back is JSON parsed again; some values are broken: a key dropped, one added, one changed.
    const values = FastCheck.sample(Arbitrary.make(schema).map((value) => JSON.parse(JSON.stringify(value))), { numRuns: 300, seed: 22 })
    for (const [i, value] of values.entries()) {
      const keys = Object.keys(value)
      const key = keys[i % Math.max(keys.length, 1)]
      const variants = key === undefined ? [value] : [value, { ...value, [key]: undefined }, { ...value, stray: i }, { ...value, [key]: i % 2 === 0 ? null : [] }]
      for (const variant of variants.map((v) => JSON.parse(JSON.stringify(v)))) {
        expect(outcome(stored, variant), JSON.stringify(variant)).toEqual(outcome(effect, variant))
      }
    }
  }
  agreesWithEffect(AnnotationRecord)
  agreesWithEffect(CommentRecord)
  agreesWithEffect(ReactionRecord)
})

it("types every field a thread read answers: the OpenAPI document says what generated clients get", () => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  JSONSchema.fromAST(CommentAnnotation.ast, { definitions, target: "openApi3.1" })
  const properties = (name: string) => Object.keys((definitions[name] as { properties: object }).properties)
  expect(definitions.CommentAnnotation).toMatchObject({ additionalProperties: false })
  expect(properties("CommentAnnotation")).toEqual(expect.arrayContaining([
    "type", "commentType", "from", "status", "visibilityConfig", "location", "locationId", "assignedTo", "priority", "annotationId", "metadata", "comments"
  ]))
  expect(definitions.Comment).toMatchObject({ additionalProperties: false })
  expect(properties("Comment")).toEqual(expect.arrayContaining([
    "commentId", "commentText", "commentHtml", "from", "taggedUserContacts", "attachments", "status", "createdAt", "lastUpdated", "reactionAnnotations"
  ]))
  expect(properties("CommentStatusRecord")).toEqual(["id", "name", "type", "color", "lightColor", "svg", "iconUrl"])
  expect(properties("CommentUserRecord")).toEqual(["userId", "name", "email"])
  expect(properties("CommentReactionAnnotation")).toContain("fromUsers")
})
