// Writes the generated documents from the built core and the recorded examples: docs/openapi.json,
// docs/reference.md and the typed clients' operations (packages/client/src/Operations.generated.ts, and the
// client API's in packages/browser/src/Operations.generated.ts).
// Run `pnpm docs` after changing an operation; packages/core/test/docs.test.ts fails until you do.
import { readFileSync, writeFileSync } from "node:fs"
import { browserSource, clientSource, referenceMarkdown } from "../packages/core/dist/codegen/index.js"
import { defaultOptions, openApiDocument, operations } from "../packages/core/dist/index.js"

// The recorded examples (scripts/examples.mjs), read as the data they are: no rebuild after recording.
const examples = JSON.parse(readFileSync("packages/core/src/codegen/examples.json", "utf8"))

const document = openApiDocument(operations, { headerPrefix: defaultOptions.headerPrefix, examples })
writeFileSync("docs/openapi.json", JSON.stringify(document, null, 2) + "\n")
writeFileSync("docs/reference.md", referenceMarkdown(operations))
writeFileSync("packages/client/src/Operations.generated.ts", clientSource(operations, document))
writeFileSync("packages/browser/src/Operations.generated.ts", browserSource(operations, document))
console.log(`docs: ${operations.length} operations written to docs/openapi.json, docs/reference.md, @atrium/client and @atrium/browser`)
