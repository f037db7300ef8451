// Invokes the bundled handler once per event file, in this process (one container, warm after the
// first), and prints each result as one JSON line. Run: pnpm --filter @atrium/example-lambda start
// Usage: node scripts/invoke.mjs <event.json>...   (DB_FILE, BASE_PATH as for the function)
import { readFileSync } from "node:fs"

const files = process.argv.slice(2)
if (files.length === 0) {
  console.error("usage: node scripts/invoke.mjs <event.json>...")
  process.exit(2)
}
const { handler } = await import(new URL("../dist/handler.mjs", import.meta.url).href)
for (const file of files) {
  const result = await handler(JSON.parse(readFileSync(file, "utf8")), { functionName: "atrium-example", awsRequestId: "local" })
  console.log(JSON.stringify(result))
}
