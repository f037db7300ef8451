import type * as Arr from "effect/Array"
import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { capTogether, Email, EpochMillis, Id, IntRange, JsonObject, List, NonEmptyIds, NonEmptyList, optional, PageSize, Text } from "../schema/Common.js"

/**
 * Comment threads (comment annotations), their comments, per the hosted service's published facts
 * (docs/compatibility.md, "Comments"); rulings in docs/decisions.md, "Comments".
 */

/** Entries of one batch at most: threads per commentannotations/add, comment ids per comments/update, updateUsers. */
export const MAX_BATCH = 100

/**
 * Comments one call adds: to one thread (commentData), and in all the threads of a
 * commentannotations/add together. Each comment's event carries its whole thread (the facts'
 * payload), so n comments to one thread cost n² (docs/decisions.md, "Limits").
 */
export const MAX_COMMENTS_PER_CALL = 50

/** Ids per filter list (the facts: max 30). */
const FilterIds = NonEmptyIds(30)

/** 1 to MAX_BATCH entries. */
export const batchOf = <S extends Schema.Schema.Any>(item: S) => NonEmptyList(item, MAX_BATCH)

/** 1 to MAX_COMMENTS_PER_CALL comments, typed non-empty: a thread's first comment is always there. */
export const commentsOf = <S extends Schema.Schema.Any>(item: S) =>
  NonEmptyList(item, MAX_COMMENTS_PER_CALL).pipe(
    Schema.filter((list): list is Arr.NonEmptyReadonlyArray<Schema.Schema.Type<S>> => list.length > 0)
  )

/** A caller-supplied thread id: an id without `:` (the facts). */
export const AnnotationId = Id.pipe(Schema.pattern(/^[^:]*$/, { message: () => "must not contain ':'" }))

/** A comment id: a positive integer, unique within its thread. */
export const CommentId = IntRange(1, Number.MAX_SAFE_INTEGER)

/** A user as payloads carry one: `userId` and what the caller knows of them; other keys are kept. */
export const User = Schema.Struct(
  { userId: Id, name: optional(Text(1000)), email: optional(Email) },
  JsonObject
).annotations({ identifier: "CommentUser" })

const Location = Schema.Struct(
  { id: Schema.Union(Id, Schema.Number), locationName: optional(Text(1000)) },
  JsonObject
)

const TargetElement = Schema.Struct({
  elementId: optional(Text(1000)),
  targetText: optional(Text(10_000)),
  occurrence: optional(IntRange(0, 1_000_000)),
  selectAllContent: optional(Schema.Boolean)
})

/** A thread's status: `type` default, ongoing or terminal (terminal: resolved). */
export const Status = Schema.Struct({
  id: Id,
  name: Text(1000),
  type: Schema.Literal("default", "ongoing", "terminal"),
  color: optional(Text(1000)),
  lightColor: optional(Text(1000)),
  svg: optional(Text(100_000)),
  iconUrl: optional(Text(2048))
}).annotations({ identifier: "CommentStatus" })

/** The status of a new thread when none is given (the facts' built-in default). */
export const OPEN_STATUS: typeof Status.Type = {
  id: "OPEN",
  name: "Open",
  type: "default",
  color: "var(--velt-accent, #625DF5)",
  lightColor: "var(--velt-accent-light, #E7E8FA)"
}

const Priority = Schema.Struct({
  id: Id,
  name: Text(1000),
  color: optional(Text(1000)),
  lightColor: optional(Text(1000))
})

const Visibility = Schema.Struct({
  type: Schema.Literal("public", "organizationPrivate", "restricted"),
  organizationId: optional(Id),
  userIds: optional(List(Id, 1000))
}).pipe(
  Schema.filter((v) =>
    v.type === "organizationPrivate" && v.organizationId === undefined
      ? { path: ["organizationId"], message: "is required when type is organizationPrivate" }
      : v.type === "restricted" && (v.userIds === undefined || v.userIds.length === 0)
      ? { path: ["userIds"], message: "must list at least one user when type is restricted" }
      : true
  )
)

const TaggedUserContact = Schema.Struct({
  userId: Id,
  text: optional(Text(1000)),
  contact: optional(User)
})

const Attachment = Schema.Struct(
  {
    attachmentId: IntRange(0, Number.MAX_SAFE_INTEGER),
    name: optional(Text(1000)),
    bucketPath: optional(Text(2048)),
    size: optional(IntRange(0, Number.MAX_SAFE_INTEGER)),
    type: optional(Text(100)),
    url: optional(Text(2048)),
    thumbnail: optional(Text(2048)),
    mimeType: optional(Text(255)),
    metadata: optional(JsonObject)
  }
)

/** One comment as commentannotations/add and comments/add take it. */
export const CommentInput = Schema.Struct({
  commentId: optional(CommentId),
  commentText: optional(Text(100_000)),
  commentHtml: optional(Text(200_000)),
  context: optional(JsonObject),
  isCommentResolverUsed: optional(Schema.Boolean),
  isCommentTextAvailable: optional(Schema.Boolean),
  triggerNotification: optional(Schema.Boolean),
  triggerActivities: optional(Schema.Boolean),
  from: User,
  createdAt: optional(EpochMillis),
  lastUpdated: optional(EpochMillis),
  taggedUserContacts: optional(List(TaggedUserContact, 1000)),
  attachments: optional(List(Attachment, 100))
})

/** A thread as commentannotations/add takes it, around its comments' schema (the client API's name no author). */
const annotationInput = <C extends Schema.Schema.Any>(comment: C) => Schema.Struct({
  annotationId: optional(AnnotationId),
  location: optional(Location),
  targetElement: optional(TargetElement),
  commentData: commentsOf(comment),
  status: optional(Status),
  assignedTo: optional(User),
  context: optional(JsonObject),
  createdAt: optional(EpochMillis),
  lastUpdated: optional(EpochMillis),
  priority: optional(Priority),
  type: optional(Schema.Literal("comment", "suggestion")),
  suggestion: optional(JsonObject),
  commentType: optional(Schema.Literal("manual", "chart", "suggestion")),
  visibility: optional(Visibility)
})

export const AnnotationInput = annotationInput(CommentInput)

/** commentannotations/add's input around its comments' schema: the server API's, or the client API's. */
export const addAnnotationsInput = <C extends Schema.Schema.Any>(comment: C) =>
  Schema.Struct({
    organizationId: Id,
    documentId: Id,
    createOrganization: optional(Schema.Boolean),
    createDocument: optional(Schema.Boolean),
    commentAnnotations: batchOf(annotationInput(comment))
  }).pipe(
    capTogether({
      counted: "comments in commentAnnotations[].commentData",
      max: MAX_COMMENTS_PER_CALL,
      path: ["commentAnnotations"],
      sum: (input) => input.commentAnnotations.reduce((sum, annotation) => sum + annotation.commentData.length, 0)
    })
  )

export const AddAnnotationsInput = addAnnotationsInput(CommentInput)

export const GetAnnotationsInput = Schema.Struct({
  organizationId: Id,
  documentId: optional(Id),
  documentIds: optional(FilterIds),
  groupByDocumentId: optional(Schema.Boolean),
  locationIds: optional(FilterIds),
  annotationIds: optional(FilterIds),
  /** The threads' creators. */
  userIds: optional(FilterIds),
  /** Threads a comment of which mentions (taggedUserContacts) any of these users. */
  mentionedUserIds: optional(FilterIds),
  resolvedBy: optional(Id),
  statusIds: optional(FilterIds),
  /** By lastUpdated; default desc. */
  order: optional(Schema.Literal("asc", "desc")),
  updatedAfter: optional(EpochMillis),
  updatedBefore: optional(EpochMillis),
  createdAfter: optional(EpochMillis),
  createdBefore: optional(EpochMillis),
  pageSize: optional(PageSize()),
  pageToken: optional(Schema.String)
})

export const DeleteAnnotationsInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  annotationIds: optional(FilterIds),
  locationIds: optional(FilterIds),
  userIds: optional(FilterIds)
})

const UserRef = Schema.Struct({ userId: Id, name: optional(Text(1000)), email: optional(Email) })

/**
 * The fields commentannotations/update sets, each on its own; `null` clears the two user ids.
 * One object, as every example sends (docs/decisions.md, "Comments").
 */
export const AnnotationChanges = Schema.Struct({
  location: optional(Location),
  targetElement: optional(TargetElement),
  from: optional(User),
  status: optional(Status),
  statusUpdatedByUserId: optional(Schema.NullOr(Id)),
  resolvedByUserId: optional(Schema.NullOr(Id)),
  assignedTo: optional(User),
  context: optional(JsonObject),
  priority: optional(Priority),
  suggestion: optional(JsonObject),
  visibility: optional(Visibility),
  createdAt: optional(EpochMillis),
  lastUpdated: optional(EpochMillis)
})

export const UpdateAnnotationsInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  annotationIds: optional(FilterIds),
  locationIds: optional(FilterIds),
  userIds: optional(FilterIds),
  updatedData: optional(AnnotationChanges),
  updateUsers: optional(List(Schema.Struct({ oldUser: UserRef, newUser: UserRef }), MAX_BATCH))
})

/** What comments/update may change of a comment, its author aside (the server API may also change that). */
export const CommentChanges = CommentInput.omit("commentId", "triggerNotification", "triggerActivities", "from")

export const UpdateCommentsInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  annotationId: AnnotationId,
  commentIds: NonEmptyList(CommentId, MAX_BATCH),
  /** The same changes for every listed comment. */
  updatedData: Schema.Struct({ ...CommentChanges.fields, from: optional(User) })
})

export const DeleteCommentsInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  annotationId: AnnotationId,
  /** Omitted: every comment of the thread. */
  commentIds: optional(List(CommentId, 1000))
})

/**
 * A comment as comments/add takes it: without triggerActivities, which the facts' comments/add does
 * not take; with triggerNotification, an extension (docs/decisions.md, "Notifications": replies
 * through the server API must be able to notify).
 */
export const ReplyInput = CommentInput.omit("triggerActivities")

export const AddCommentsInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  annotationId: AnnotationId,
  createOrganization: optional(Schema.Boolean),
  createDocument: optional(Schema.Boolean),
  commentData: commentsOf(ReplyInput)
})

export const GetCommentsInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  annotationId: AnnotationId,
  /** The comments' authors. */
  userIds: optional(FilterIds),
  commentIds: optional(List(CommentId, 1000))
})

/** How to draw a reaction of one's own. */
const CustomReaction = Schema.Struct({ url: optional(Text(2048)), svg: optional(Text(100_000)), emoji: optional(Text(100)) })

/** An emoji by id (e.g. `HEART_FACE`), and how to draw one of your own (the SDK's reaction shape). */
const Reaction = Schema.Struct({
  reactionId: Id,
  customReaction: optional(CustomReaction)
})

/** reactions/add and reactions/delete: `from` reacted (or stops reacting) to the thread's comment. */
export const ReactionInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  annotationId: AnnotationId,
  commentId: CommentId,
  reaction: Reaction,
  from: User
})

export const ReactionResult = SuccessResult(Schema.Struct({ reactionAnnotationId: Schema.String }))

/** commentannotations/read: `userId` has read these threads, as they are now. */
export const MarkReadInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  annotationIds: FilterIds,
  userId: Id
})

/** commentannotations/count/get; agent filters are taken and ignored, as the hosted service does. */
export const CountAnnotationsInput = Schema.Struct({
  organizationId: Id,
  documentIds: FilterIds,
  /** Whose unread threads are counted. */
  userId: Id,
  statusIds: optional(FilterIds),
  agentId: optional(Schema.Unknown),
  agentSuggestions: optional(Schema.Unknown),
  agentUrls: optional(Schema.Unknown)
})

export const CountAnnotationsResult = SuccessResult(
  Schema.Record({ key: Schema.String, value: Schema.Struct({ total: Schema.Number, unread: Schema.Number }) })
)

/**
 * What a thread, a comment and a reaction are stored as, and so what reads answer: the shapes
 * the caller sent, without the limits a request is held to (a record accepted under other limits
 * still reads back). SqlCommentsRepo decodes what it reads with these records; the output
 * schemas below are built on the same fields, so the OpenAPI document types every field a read
 * answers (docs/decisions.md, "Comments").
 */
const withoutLimits = <A, I>(schema: Schema.Schema<A, I, never>, identifier?: string) => {
  const shape = Schema.encodedSchema(schema)
  return identifier === undefined ? shape : shape.annotations({ identifier })
}

/** A user as stored and read back: `userId`, what the caller knew of them, and any other keys they sent. */
export const UserRecord = withoutLimits(User, "CommentUserRecord")
export type UserRecord = typeof UserRecord.Type

export const StatusRecord = withoutLimits(Status, "CommentStatusRecord")

/** A thread as stored (`comment_annotations.record`): every field but those with a column of their own. */
export const AnnotationRecord = Schema.Struct({
  type: Schema.Literal("comment", "suggestion"),
  commentType: Schema.Literal("manual", "chart", "suggestion"),
  /** The author of the thread's first comment. */
  from: UserRecord,
  status: StatusRecord,
  visibilityConfig: withoutLimits(Visibility),
  location: optional(withoutLimits(Location)),
  /** `location.id` as text: what `locationIds` filters by. */
  locationId: optional(Schema.String),
  targetElement: optional(withoutLimits(TargetElement)),
  assignedTo: optional(UserRecord),
  priority: optional(withoutLimits(Priority)),
  context: optional(JsonObject),
  suggestion: optional(JsonObject),
  statusUpdatedByUserId: optional(Schema.String),
  /** Only while the status is terminal. */
  resolvedByUserId: optional(Schema.String)
})
export type AnnotationRecord = typeof AnnotationRecord.Type

/** A comment as stored (`comments.record`): what the caller sent, less what has a column or asks for a side effect. */
export const CommentRecord = Schema.Struct({
  commentText: optional(Schema.String),
  commentHtml: optional(Schema.String),
  context: optional(JsonObject),
  isCommentResolverUsed: optional(Schema.Boolean),
  isCommentTextAvailable: optional(Schema.Boolean),
  from: UserRecord,
  taggedUserContacts: Schema.Array(withoutLimits(TaggedUserContact)),
  attachments: Schema.Array(withoutLimits(Attachment)),
  /** "updated" once comments/update changed it. */
  status: Schema.Literal("added", "updated")
})
export type CommentRecord = typeof CommentRecord.Type

/** A reaction as stored (`comment_reactions.record`): who reacted, and how to draw a reaction of their own. */
export const ReactionRecord = Schema.Struct({
  from: UserRecord,
  customReaction: optional(withoutLimits(CustomReaction))
})
export type ReactionRecord = typeof ReactionRecord.Type

/** The reactions to a comment with one emoji, as reads show them (the facts' REST read shape). */
export const ReactionAnnotation = Schema.Struct({
  /** `<annotationId>:<commentId>:<reactionId>` */
  annotationId: Schema.String,
  type: Schema.Literal("reaction"),
  /** The emoji's id. */
  icon: Schema.String,
  iconUrl: optional(Schema.String),
  iconEmoji: optional(Schema.String),
  iconSvg: optional(Schema.String),
  /** The thread. */
  commentAnnotationId: Schema.String,
  fromUsers: Schema.Array(Schema.Struct({ from: UserRecord, lastUpdated: Schema.Number })),
  lastUpdated: Schema.Number
}).annotations({ identifier: "CommentReactionAnnotation" })
export type ReactionAnnotation = typeof ReactionAnnotation.Type

/** A comment as reads answer it: its record, `createdAt` in ms, `lastUpdated` ISO 8601 (the facts), its reactions. */
export const Comment = Schema.Struct({
  commentId: Schema.Number,
  type: Schema.Literal("text"),
  ...CommentRecord.fields,
  createdAt: Schema.Number,
  lastUpdated: Schema.String,
  reactionAnnotationIds: Schema.Array(Schema.String),
  /** One per emoji, with the users who reacted with it. */
  reactionAnnotations: Schema.Array(ReactionAnnotation)
}).annotations({ identifier: "Comment" })
export type Comment = typeof Comment.Type

/** A thread as reads answer it: its record, its columns, and its comments. */
export const CommentAnnotation = Schema.Struct({
  ...AnnotationRecord.fields,
  annotationId: Schema.String,
  annotationNumber: Schema.Number,
  sourceType: Schema.Literal("rest-api"),
  createdAt: Schema.Number,
  lastUpdated: Schema.Number,
  metadata: Schema.Struct({ apiKey: Schema.String, organizationId: Schema.String, documentId: Schema.String }),
  comments: Schema.Array(Comment)
}).annotations({ identifier: "CommentAnnotation" })
export type CommentAnnotation = typeof CommentAnnotation.Type

const AddedAnnotation = Schema.Struct({
  success: Schema.Boolean,
  annotationId: optional(Schema.String),
  commentIds: optional(Schema.Array(Schema.Number)),
  message: Schema.String
})

export const AddAnnotationsResult = SuccessResult(Schema.Record({ key: Schema.String, value: AddedAnnotation }))

export const AnnotationsPage = SuccessResult(
  Schema.Union(
    Schema.Array(Schema.NullOr(CommentAnnotation)),
    Schema.Record({ key: Schema.String, value: Schema.Array(Schema.NullOr(CommentAnnotation)) })
  ),
  { nextPageToken: optional(Schema.String) }
)

const ItemResult = Schema.Struct({ success: Schema.Boolean, id: Schema.Union(Schema.String, Schema.Number), message: Schema.String })

export const DeleteAnnotationsResult = SuccessResult(Schema.Record({ key: Schema.String, value: ItemResult }))

/** Per-id results keyed by the id as text (thread ids, or comment ids). */
export const ItemResults = SuccessResult(Schema.Record({ key: Schema.String, value: ItemResult }))

export const AddCommentsResult = SuccessResult(Schema.Array(Schema.Number))

export const CommentsResult = SuccessResult(Schema.Array(Schema.NullOr(Comment)))
