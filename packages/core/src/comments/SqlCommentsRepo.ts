import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { limitRows } from "../sql/Limit.js"
import { allRows, firstRow, ignoreRows, mapRows } from "../sql/MapRows.js"
import { type IntegerColumn, type JsonColumn, num, strOrNull, toJson } from "../sql/Rows.js"
import { makeStoredDecoder } from "../schema/StoredDecoder.js"
import { AnnotationRecord, CommentRecord, ReactionRecord } from "./CommentSchemas.js"
import { type AnnotationFilters, type AnnotationRow, type CommentRow, CommentsRepo, type ReactionRow } from "./CommentsRepo.js"

// Each stored record is decoded as it is read, with decoders made once (a read of 50 threads decodes 300 records).
const annotationRecord = makeStoredDecoder(AnnotationRecord)
const commentRecord = makeStoredDecoder(CommentRecord)
const reactionRecord = makeStoredDecoder(ReactionRecord)

/** One `comment_annotations` row as the drivers return it (column types: sql/Rows.ts). */
interface AnnotationSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly id: string
  readonly document_id: string
  readonly annotation_number: IntegerColumn
  readonly location_id: string | null
  readonly status_id: string
  readonly created_by: string
  readonly resolved_by: string | null
  readonly created_at: IntegerColumn
  readonly last_updated: IntegerColumn
  readonly record: JsonColumn
}

/** One `comments` row. */
interface CommentSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly annotation_id: string
  readonly id: IntegerColumn
  readonly created_by: string
  readonly created_at: IntegerColumn
  readonly last_updated: IntegerColumn
  readonly seq: IntegerColumn
  readonly record: JsonColumn
}

/** One `comment_reactions` row. */
interface ReactionSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly annotation_id: string
  readonly comment_id: IntegerColumn
  readonly reaction_id: string
  readonly user_id: string
  readonly created_at: IntegerColumn
  readonly record: JsonColumn
}

const toReaction = (r: ReactionSqlRow): ReactionRow => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  annotationId: r.annotation_id,
  commentId: num(r.comment_id),
  reactionId: r.reaction_id,
  userId: r.user_id,
  createdAt: num(r.created_at),
  record: reactionRecord(JSON.parse(r.record))
})

const toAnnotation = (r: AnnotationSqlRow): AnnotationRow => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  id: r.id,
  documentId: r.document_id,
  annotationNumber: num(r.annotation_number),
  locationId: strOrNull(r.location_id),
  statusId: r.status_id,
  createdBy: r.created_by,
  resolvedBy: strOrNull(r.resolved_by),
  createdAt: num(r.created_at),
  lastUpdated: num(r.last_updated),
  record: annotationRecord(JSON.parse(r.record))
})

const toComment = (r: CommentSqlRow): CommentRow => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  annotationId: r.annotation_id,
  id: num(r.id),
  createdBy: r.created_by,
  createdAt: num(r.created_at),
  lastUpdated: num(r.last_updated),
  seq: num(r.seq),
  record: commentRecord(JSON.parse(r.record))
})

export const SqlCommentsRepo = Layer.effect(
  CommentsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // The stored visibility's type, read from the record (no column of its own: only private-thread checks ask for it).
    const visibilityType = () =>
      sql.onDialectOrElse({
        pg: () => sql`(record::jsonb -> 'visibilityConfig' ->> 'type')`,
        orElse: () => sql`json_extract(record, '$.visibilityConfig.type')`
      })

    // Threads a comment of which mentions one of `users`, read from the comments' records (the mentions have no table of their own).
    const mentioning = (users: ReadonlyArray<string>) =>
      sql.onDialectOrElse({
        pg: () =>
          sql`EXISTS (SELECT 1 FROM comments c, jsonb_array_elements(c.record::jsonb -> 'taggedUserContacts') AS t(contact)
            WHERE c.api_key = comment_annotations.api_key AND c.organization_id = comment_annotations.organization_id
            AND c.annotation_id = comment_annotations.id AND (t.contact ->> 'userId') IN ${sql.in(users)})`,
        orElse: () =>
          sql`EXISTS (SELECT 1 FROM comments c, json_each(c.record, '$.taggedUserContacts') AS t
            WHERE c.api_key = comment_annotations.api_key AND c.organization_id = comment_annotations.organization_id
            AND c.annotation_id = comment_annotations.id AND json_extract(t.value, '$.userId') IN ${sql.in(users)})`
      })

    const conditions = (apiKey: string, organizationId: string, f: AnnotationFilters) => [
      sql`api_key = ${apiKey}`,
      sql`organization_id = ${organizationId}`,
      ...(f.documentIds !== undefined ? [sql.in("document_id", f.documentIds)] : []),
      ...(f.ids !== undefined ? [sql.in("id", f.ids)] : []),
      ...(f.locationIds !== undefined ? [sql.in("location_id", f.locationIds)] : []),
      ...(f.createdBy !== undefined ? [sql.in("created_by", f.createdBy)] : []),
      ...(f.mentioned !== undefined ? [mentioning(f.mentioned)] : []),
      ...(f.statusIds !== undefined ? [sql.in("status_id", f.statusIds)] : []),
      ...(f.resolvedBy !== undefined ? [sql`resolved_by = ${f.resolvedBy}`] : []),
      ...(f.updatedAfter !== undefined ? [sql`last_updated > ${f.updatedAfter}`] : []),
      ...(f.updatedBefore !== undefined ? [sql`last_updated < ${f.updatedBefore}`] : []),
      ...(f.createdAfter !== undefined ? [sql`created_at > ${f.createdAfter}`] : []),
      ...(f.createdBefore !== undefined ? [sql`created_at < ${f.createdBefore}`] : []),
      ...(f.privateOnly === true ? [sql`${visibilityType()} <> 'public'`] : [])
    ]

    return {
      nextAnnotationNumber: (apiKey, organizationId, documentId) =>
        sql`SELECT COALESCE(MAX(annotation_number), 0) + 1 AS next FROM comment_annotations
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND document_id = ${documentId}`.pipe(
          mapRows((rows: ReadonlyArray<{ readonly next: IntegerColumn }>) => num(rows[0]!.next))
        ),
      existingAnnotations: (apiKey, organizationId, ids) =>
        ids.length === 0 ? Effect.succeed([]) : sql`SELECT id FROM comment_annotations
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND ${sql.in("id", ids)}`.pipe(
          allRows((row: { readonly id: string }) => row.id)
        ),
      insertAnnotation: (a) =>
        sql`INSERT INTO comment_annotations ${
          sql.insert({
            api_key: a.apiKey,
            organization_id: a.organizationId,
            id: a.id,
            document_id: a.documentId,
            annotation_number: a.annotationNumber,
            location_id: a.locationId,
            status_id: a.statusId,
            created_by: a.createdBy,
            resolved_by: a.resolvedBy,
            created_at: a.createdAt,
            last_updated: a.lastUpdated,
            record: toJson(a.record)
          })
        }`.pipe(ignoreRows),
      findAnnotation: (apiKey, organizationId, id) =>
        sql`SELECT * FROM comment_annotations WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND id = ${id}`.pipe(
          firstRow(toAnnotation)
        ),
      touchAnnotation: (apiKey, organizationId, id, lastUpdated) =>
        sql`UPDATE comment_annotations SET last_updated = ${lastUpdated}
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND id = ${id} AND last_updated < ${lastUpdated}`.pipe(ignoreRows),
      pageAnnotations: (apiKey, organizationId, filters, { after, limit, order }) => {
        const keyset = after === undefined ? [] : order === "asc"
          ? [sql`(last_updated > ${after.lastUpdated} OR (last_updated = ${after.lastUpdated} AND id > ${after.id}))`]
          : [sql`(last_updated < ${after.lastUpdated} OR (last_updated = ${after.lastUpdated} AND id < ${after.id}))`]
        const direction = sql.literal(order === "asc" ? "ASC" : "DESC")
        return sql`SELECT * FROM comment_annotations WHERE ${sql.and([...conditions(apiKey, organizationId, filters), ...keyset])}
          ORDER BY last_updated ${direction}, id ${direction} ${limitRows(sql, limit)}`.pipe(allRows(toAnnotation))
      },
      deleteAnnotations: (apiKey, organizationId, documentId, filters) =>
        sql`DELETE FROM comment_annotations WHERE ${
          sql.and([...conditions(apiKey, organizationId, { ...filters, documentIds: [documentId] })])
        } RETURNING id`.pipe(
          allRows((row: { readonly id: string }) => row.id),
          // What belongs to the threads goes with them: comments, their reactions, read markers.
          Effect.tap((ids) =>
            ids.length === 0 ? Effect.void : Effect.forEach(
              ["comments", "comment_reactions", "comment_reads"],
              (table) => sql`DELETE FROM ${sql.literal(table)}
                WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND ${sql.in("annotation_id", ids)}`.pipe(ignoreRows),
              { discard: true }
            )
          )
        ),
      updateAnnotation: (a) =>
        sql`UPDATE comment_annotations SET ${
          sql.update({
            location_id: a.locationId,
            status_id: a.statusId,
            created_by: a.createdBy,
            resolved_by: a.resolvedBy,
            created_at: a.createdAt,
            last_updated: a.lastUpdated,
            record: toJson(a.record)
          })
        } WHERE api_key = ${a.apiKey} AND organization_id = ${a.organizationId} AND id = ${a.id}`.pipe(ignoreRows),
      updateComment: (c) =>
        sql`UPDATE comments SET ${
          sql.update({ created_by: c.createdBy, created_at: c.createdAt, last_updated: c.lastUpdated, record: toJson(c.record) })
        } WHERE api_key = ${c.apiKey} AND organization_id = ${c.organizationId} AND annotation_id = ${c.annotationId} AND id = ${c.id}`.pipe(ignoreRows),
      deleteComments: (apiKey, organizationId, annotationId, ids) =>
        ids !== undefined && ids.length === 0 ? Effect.succeed([]) : sql`DELETE FROM comments WHERE ${
          sql.and([
            sql`api_key = ${apiKey}`,
            sql`organization_id = ${organizationId}`,
            sql`annotation_id = ${annotationId}`,
            ...(ids !== undefined ? [sql.in("id", ids)] : [])
          ])
        } RETURNING *`.pipe(
          allRows(toComment),
          Effect.tap((deleted) =>
            deleted.length === 0 ? Effect.void : sql`DELETE FROM comment_reactions
              WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND annotation_id = ${annotationId}
              AND ${sql.in("comment_id", deleted.map((c) => c.id))}`.pipe(ignoreRows)
          )
        ),
      listReactions: (apiKey, organizationId, annotationIds) =>
        annotationIds.length === 0 ? Effect.succeed([]) : sql`SELECT * FROM comment_reactions
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND ${sql.in("annotation_id", annotationIds)}
          ORDER BY annotation_id, comment_id, created_at, reaction_id, user_id`.pipe(allRows(toReaction)),
      insertReaction: (r) =>
        sql`INSERT INTO comment_reactions ${
          sql.insert({
            api_key: r.apiKey,
            organization_id: r.organizationId,
            annotation_id: r.annotationId,
            comment_id: r.commentId,
            reaction_id: r.reactionId,
            user_id: r.userId,
            created_at: r.createdAt,
            record: toJson(r.record)
          })
        } ON CONFLICT DO NOTHING RETURNING user_id`.pipe(mapRows((rows) => rows.length > 0)),
      deleteReaction: (r) =>
        sql`DELETE FROM comment_reactions WHERE api_key = ${r.apiKey} AND organization_id = ${r.organizationId}
          AND annotation_id = ${r.annotationId} AND comment_id = ${r.commentId} AND reaction_id = ${r.reactionId}
          AND user_id = ${r.userId} RETURNING user_id`.pipe(mapRows((rows) => rows.length > 0)),
      markRead: (apiKey, organizationId, annotationId, userId, readAt) =>
        sql`INSERT INTO comment_reads ${
          sql.insert({ api_key: apiKey, organization_id: organizationId, annotation_id: annotationId, user_id: userId, read_at: readAt })
        } ON CONFLICT (api_key, organization_id, annotation_id, user_id) DO UPDATE SET read_at = excluded.read_at`.pipe(ignoreRows),
      readAtOf: (apiKey, organizationId, userId, annotationIds) =>
        annotationIds.length === 0 ? Effect.succeed(new Map()) : sql`SELECT annotation_id, read_at FROM comment_reads
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND user_id = ${userId} AND ${sql.in("annotation_id", annotationIds)}`.pipe(
          mapRows((rows: ReadonlyArray<{ readonly annotation_id: string; readonly read_at: IntegerColumn }>) =>
            new Map(rows.map((row) => [row.annotation_id, num(row.read_at)])))
        ),
      countAnnotations: (apiKey, organizationId, userId, filters) =>
        sql`SELECT a.document_id AS document_id, COUNT(*) AS total,
            SUM(CASE WHEN r.read_at IS NULL OR r.read_at < a.last_updated THEN 1 ELSE 0 END) AS unread
          FROM (SELECT api_key, organization_id, id, document_id, last_updated FROM comment_annotations
            WHERE ${sql.and(conditions(apiKey, organizationId, filters))}) a
          LEFT JOIN comment_reads r
            ON r.api_key = a.api_key AND r.organization_id = a.organization_id AND r.annotation_id = a.id AND r.user_id = ${userId}
          GROUP BY a.document_id`.pipe(
          allRows((row: { readonly document_id: string; readonly total: IntegerColumn; readonly unread: IntegerColumn }) => ({
            documentId: row.document_id,
            total: num(row.total),
            unread: num(row.unread)
          }))
        ),
      insertComments: (rows) =>
        rows.length === 0 ? Effect.void : sql`INSERT INTO comments ${
          sql.insert(rows.map((c) => ({
            api_key: c.apiKey,
            organization_id: c.organizationId,
            annotation_id: c.annotationId,
            id: c.id,
            created_by: c.createdBy,
            created_at: c.createdAt,
            last_updated: c.lastUpdated,
            record: toJson(c.record),
            seq: c.seq
          })))
        }`.pipe(ignoreRows),
      existingCommentIds: (apiKey, organizationId, annotationId, ids) =>
        ids.length === 0 ? Effect.succeed([]) : sql`SELECT id FROM comments
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND annotation_id = ${annotationId} AND ${sql.in("id", ids)}`.pipe(
          allRows((row: { readonly id: IntegerColumn }) => num(row.id))
        ),
      nextCommentSeq: (apiKey, organizationId, annotationId) =>
        sql`SELECT COALESCE(MAX(seq), -1) + 1 AS next FROM comments
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND annotation_id = ${annotationId}`.pipe(
          mapRows((rows: ReadonlyArray<{ readonly next: IntegerColumn }>) => num(rows[0]!.next))
        ),
      listComments: (apiKey, organizationId, annotationIds) =>
        annotationIds.length === 0 ? Effect.succeed([]) : sql`SELECT * FROM comments
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND ${sql.in("annotation_id", annotationIds)}
          ORDER BY annotation_id, created_at, seq, id`.pipe(allRows(toComment))
    }
  })
)
