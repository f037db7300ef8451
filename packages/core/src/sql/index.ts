/** @atrium/core/sql: the repositories written once against @effect/sql's SqlClient. */
export { SqlStorage } from "./SqlStorage.js"
export { type DirectRun, withDirectStatements } from "./DirectStatements.js"
export { ignoreRows, mapRows } from "./MapRows.js"
