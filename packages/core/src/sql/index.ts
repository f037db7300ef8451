/** @atrium/core/sql: the repositories and migrations written once against @effect/sql's SqlClient, for SQLite and PostgreSQL. */
export { encodeFeedMessage, decodeFeedMessage, type FeedListener, type FeedMessage, InProcessChangeFeed } from "../realtime/ChangeFeed.js"
export { SqlStorage, sqlStorage } from "../SqlStorage.js"
export { directStatementsWanted, type DirectRun, withDirectStatements } from "./DirectStatements.js"
export { ignoreRows, mapRows } from "./MapRows.js"
export { MIGRATIONS_TABLE, migrationRecord, migrations } from "./migrations/index.js"
export { migrationScript } from "./migrations/Print.js"
export { makeSyncSqliteClient, preparedStatements, type SyncSqliteClientOptions, type SyncSqliteDriver } from "./SyncSqliteClient.js"
