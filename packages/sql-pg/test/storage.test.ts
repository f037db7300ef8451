/** The storage conformance suite on PostgreSQL, in a fresh database (`@atrium/sql-pg/testing`). */
import { storageSuite } from "@atrium/core/testing"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PgStorage } from "../src/index.js"
import { testDatabase } from "../src/testing/index.js"

const onFreshDatabase = () =>
  Layer.unwrapScoped(
    Effect.acquireRelease(Effect.promise(testDatabase), (db) => Effect.promise(db.drop)).pipe(
      Effect.map((db) => PgStorage.layer({ url: db.url }))
    )
  )

await storageSuite("postgres", onFreshDatabase)
