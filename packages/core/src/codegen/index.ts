/**
 * @atrium/core/codegen: what the generated documents are made of beside the operation table, kept
 * off the request path and out of the main entry: the recorded examples (data), the operation
 * reference (docs/reference.md) and the typed clients' sources (@atrium/client, @atrium/browser).
 * `pnpm docs` (scripts/docs.mjs) writes them with `openApiDocument` from `@atrium/core`;
 * `atrium serve` gives the examples to its `GET /openapi.json`.
 */
export { browserSource, clientSource } from "./ClientSource.js"
export { examples } from "./Examples.js"
export { referenceMarkdown } from "./Reference.js"
