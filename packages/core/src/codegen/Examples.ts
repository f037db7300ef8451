import type { OperationExample } from "../protocol/OpenApi.js"
import recorded from "./examples.json" with { type: "json" }

/**
 * The recorded request and answer of every path: data (examples.json), recorded by `pnpm docs`
 * (scripts/examples.mjs walks every operation against a real Atrium). Not in the main entry: only
 * the generated documents, the tests and `atrium serve`'s `/openapi.json` read them.
 * test/codegen/examples.test.ts fails when one no longer matches its operation.
 */
export const examples: Readonly<Record<string, OperationExample>> = recorded
