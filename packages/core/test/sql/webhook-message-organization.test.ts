/**
 * Migration 0015 gives the webhook messages stored before it their organization, where the stored
 * event shows it, on both dialects: a database migrated up to 0014 is given messages as the
 * outbox wrote them then, and the rest of the migrations run over them.
 */
import { PgStorage } from "@atrium/sql-pg"
import { testDatabase } from "@atrium/sql-pg/testing"
import { SqliteStorage } from "@atrium/sql-sqlite"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { afterAll, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { MIGRATIONS_TABLE, migrationRecord } from "../../src/sql/migrations/index.js"

const db = await testDatabase()
afterAll(() => db.drop())

const before = Object.fromEntries(Object.entries(migrationRecord).filter(([id]) => id < "0015"))

/** A message as the outbox wrote it before 0015. */
const legacy = (apiKey: string, id: string, eventType: string, channels: ReadonlyArray<string>, payload: string) =>
  ({ api_key: apiKey, id, event_type: eventType, channels: JSON.stringify(channels), payload, event_id: null, created_at: 1 })

const rows = [
  // An activity, a comment and an access event: the first channel, named again in the payload.
  legacy("k1", "activity", "comment.add", ["org-a", "org-a/doc"], JSON.stringify({ id: "act", metadata: { apiKey: "k1", documentId: "doc", organizationId: "org-a" } })),
  legacy("k1", "comment", "comment.update", ["org-b", "org-b/doc"], JSON.stringify({ commentAnnotation: {}, metadata: { organizationId: "org-b", documentId: "doc" } })),
  legacy("k1", "access", "access.folder_type_updated", ["org-c"], JSON.stringify({ resource: { type: "folder", id: "f", organizationId: "org-c" }, accessType: "public" })),
  // Payloads PostgreSQL cannot read as JSON text (an escaped NUL, a lone surrogate) are read all the same.
  legacy("k1", "nul", "comment.add", ["org-a"], JSON.stringify({ note: "a\u0000b\ud800", metadata: { organizationId: "org-a" } })),
  // The host's messages: channels of its own, or a payload that names an organization its channels do not.
  legacy("k1", "host", "order.paid", ["shop-1"], JSON.stringify({ orderId: 7 })),
  legacy("k1", "host-mimic", "order.paid", ["shop-1"], JSON.stringify({ metadata: { organizationId: "org-a" } })),
  legacy("k1", "whole-key", "access.default_type_updated", [], JSON.stringify({ defaultDocumentAccessType: "restricted" })),
  // Exhausted: its message's organization, looked up under its own key.
  legacy("k1", "exhausted-activity", "message.attempt.exhausted", ["org-a", "org-a/doc"], JSON.stringify({ messageId: "activity", endpointId: "ep" })),
  legacy("k1", "exhausted-host", "message.attempt.exhausted", ["shop-1"], JSON.stringify({ messageId: "host", endpointId: "ep" })),
  legacy("k1", "exhausted-nul", "message.attempt.exhausted", ["org-a"], JSON.stringify({ messageId: "nul", lastAttempt: { responseBody: "\u0000" } })),
  legacy("k2", "activity", "order.paid", ["org-a"], JSON.stringify({})),
  legacy("k2", "exhausted-activity", "message.attempt.exhausted", ["org-a"], JSON.stringify({ messageId: "activity", endpointId: "ep" }))
]

const expected = {
  "k1/activity": "org-a",
  "k1/comment": "org-b",
  "k1/access": "org-c",
  "k1/nul": "org-a",
  "k1/host": null,
  "k1/host-mimic": null,
  "k1/whole-key": null,
  "k1/exhausted-activity": "org-a",
  "k1/exhausted-host": null,
  "k1/exhausted-nul": "org-a",
  "k2/activity": null,
  "k2/exhausted-activity": null
}

const migrateOver = (migrateAll: Effect.Effect<unknown, unknown, SqlClient.SqlClient>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* Migrator.make({})({ loader: Migrator.fromRecord(before), table: MIGRATIONS_TABLE })
    yield* sql`INSERT INTO webhook_messages ${sql.insert(rows)}`
    yield* migrateAll
    const stored = yield* sql<{ api_key: string; id: string; organization_id: string | null }>`
      SELECT api_key, id, organization_id FROM webhook_messages`
    return Object.fromEntries(stored.map((r) => [`${r.api_key}/${r.id}`, r.organization_id]))
  })

it.effect("SQLite: earlier messages take the organization their event shows, else none", () =>
  Effect.gen(function*() {
    const stored = yield* Effect.provide(migrateOver(SqliteStorage.migrate), SqliteStorage.clientLayer({ filename: ":memory:" }))
    expect(stored).toEqual(expected)
  }))

it.effect("PostgreSQL: earlier messages take the organization their event shows, else none", () =>
  Effect.gen(function*() {
    const stored = yield* Effect.provide(migrateOver(PgStorage.migrate), PgStorage.clientLayer({ url: db.url }))
    expect(stored).toEqual(expected)
  }))
