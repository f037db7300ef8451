// Atrium as a Lambda function: API Gateway (REST or HTTP API), Function URL or ALB, on SQLite in /tmp.
// Build: pnpm --filter @atrium/example-lambda bundle → dist/ (handler.mjs + the native SQLite module): zip dist/, handler "handler.handler".
import { createAtrium } from "@atrium/core"
import { toLambdaHandler } from "@atrium/lambda"
import { SqliteStorage } from "@atrium/sql-sqlite"

// Module scope runs once per container: the Atrium (runtime, SQLite connection, migrations) is built
// on the first invocation and every later invocation of this container reuses it. /tmp is the only
// writable folder on Lambda and belongs to one container: each container starts with an empty
// database, so keep shared data in PostgreSQL (docs/adapters/lambda.md, "Storage").
export const handler = toLambdaHandler(
  () => createAtrium({ storage: SqliteStorage.layer({ filename: process.env.DB_FILE ?? "/tmp/atrium.db" }) }),
  { basePath: process.env.BASE_PATH ?? "" }
)
