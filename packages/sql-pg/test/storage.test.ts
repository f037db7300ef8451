/** The storage conformance suite on PostgreSQL, in a fresh database (`@atrium/sql-pg/testing`), with the direct path on and off. */
import { storageSuite } from "@atrium/core/testing"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PgStorage } from "../src/index.js"
import { testDatabase } from "../src/testing/index.js"

const onFreshDatabase = (directStatements: boolean) => () =>
  Layer.unwrapScoped(
    Effect.acquireRelease(Effect.promise(testDatabase), (db) => Effect.promise(db.drop)).pipe(
      Effect.map((db) => PgStorage.layer({ url: db.url, directStatements }))
    )
  )

await storageSuite("postgres", onFreshDatabase(true))
await storageSuite("postgres (direct statements off)", onFreshDatabase(false))
