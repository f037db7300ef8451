// One cold start: load the bundle and answer one HTTP API (payload v2) event, then print the timings.
// performance.now() counts from the start of this process.
import { readFileSync } from "node:fs"

const event = JSON.parse(readFileSync(new URL("../events/http-api-create-workspace.json", import.meta.url), "utf8"))
const started = performance.now()
const { handler } = await import(new URL("../dist/handler.mjs", import.meta.url).href)
const loaded = performance.now()
const result = await handler(event, {})
const answered = performance.now()
console.log(JSON.stringify({ statusCode: result.statusCode, nodeBootMs: started, importMs: loaded - started, firstInvocationMs: answered - loaded, totalMs: answered }))
