import { build } from "../../tsup.shared.js"

// Shims give the CommonJS build `import.meta.url` (the docs page finds Redoc's bundle by it).
export default build({ index: "src/index.ts", "sql/index": "src/sql/index.ts", "testing/index": "src/testing/index.ts", "codegen/index": "src/codegen/index.ts" }, { shims: true })
