// Records the request and the answer of every path, walked in order against an Atrium on an
// in-memory database (scripts/walkthrough.mjs), into packages/core/src/codegen/examples.json:
// the OpenAPI document's examples. Run by `pnpm docs`; fails when a step does not succeed or a
// path has no step. packages/core/test/codegen/examples.test.ts replays the same walk and fails
// when the recorded examples no longer fit the operations.
import { writeFileSync } from "node:fs"
import { operations } from "../packages/core/dist/index.js"
import { CapturedMail, directClient, MemoryStorage, testAtrium } from "../packages/core/dist/testing/index.js"
import { record } from "./walkthrough.mjs"

const atrium = testAtrium(MemoryStorage, {}, CapturedMail.layer)
const examples = await record({ atrium, client: directClient(atrium), operations })
await atrium.dispose()

writeFileSync("packages/core/src/codegen/examples.json", JSON.stringify(examples, null, 2) + "\n")
console.log(`docs: ${Object.keys(examples).length} examples recorded`)
