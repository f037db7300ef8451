// Records the request and the answer of every path, walked in order against an Atrium on an
// in-memory database (scripts/walkthrough.mjs), into packages/core/src/codegen/examples.json:
// the OpenAPI document's examples. Run by `pnpm docs`; fails when a step does not succeed or a
// path has no step.
import { writeFileSync } from "node:fs"
import { createAtrium, operations } from "../packages/core/dist/index.js"
import { directClient, MemoryStorage } from "../packages/core/dist/testing/index.js"
import { replay } from "./walkthrough.mjs"

const atrium = createAtrium({ storage: MemoryStorage })
const client = directClient(atrium)
const authOf = new Map(operations.flatMap((operation) => operation.paths.map((path) => [path, operation.auth])))
const headersFor = (auth, ctx) =>
  auth === "apiKey" ? { "x-service-api-key": ctx.apiKey, "x-service-auth-token": ctx.authToken }
  : auth === "workspace" ? { "x-service-workspace-id": ctx.workspaceId, "x-service-workspace-auth-token": ctx.workspaceAuthToken }
  : {}

const examples = {}
await replay({
  settle: () => atrium.runDue(),
  call: async (path, data, ctx) => {
    if (!authOf.has(path)) throw new Error(`walkthrough: no operation at ${path}`)
    const answer = await client.post(path, data, headersFor(authOf.get(path), ctx))
    if (answer.status >= 300) throw new Error(`walkthrough: ${path} answered ${answer.status}: ${answer.text}`)
    examples[path] = { request: { data }, response: answer.body }
    return answer.body.result
  }
})
const missing = [...authOf.keys()].filter((path) => !(path in examples))
if (missing.length > 0) throw new Error(`walkthrough: no step for ${missing.join(", ")}`)
await atrium.dispose()

writeFileSync("packages/core/src/codegen/examples.json", JSON.stringify(examples, null, 2) + "\n")
console.log(`docs: ${Object.keys(examples).length} examples recorded`)
