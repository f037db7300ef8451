import type * as SqlClient from "@effect/sql/SqlClient"
import * as Layer from "effect/Layer"
import { SqlStorage } from "../SqlStorage.js"
import type { StorageServices } from "../Storage.js"
import { SqlJsClient } from "./SqlJsClient.js"

/**
 * In-memory storage: the very SQL repositories of SQLite and PostgreSQL, on an in-memory SQLite
 * compiled to WebAssembly (sql.js, no native build). Each build of the layer is a fresh, empty,
 * migrated store; its `SqlClient` is there for tests that look at the rows.
 */
export const MemoryStorage: Layer.Layer<StorageServices | SqlClient.SqlClient> = SqlStorage.pipe(
  Layer.provideMerge(SqlJsClient)
)
