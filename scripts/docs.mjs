// Writes the generated documents from the built core: docs/openapi.json, docs/reference.md and
// the typed client's operations (packages/client/src/Operations.generated.ts).
// Run `pnpm docs` after changing an operation; packages/core/test/docs.test.ts fails until you do.
import { writeFileSync } from "node:fs"
import { clientSource, defaultOptions, openApiDocument, operations, referenceMarkdown } from "../packages/core/dist/index.js"

writeFileSync("docs/openapi.json", JSON.stringify(openApiDocument(operations, { headerPrefix: defaultOptions.headerPrefix }), null, 2) + "\n")
writeFileSync("docs/reference.md", referenceMarkdown(operations))
writeFileSync("packages/client/src/Operations.generated.ts", clientSource(operations))
console.log(`docs: ${operations.length} operations written to docs/openapi.json, docs/reference.md and @atrium/client`)
