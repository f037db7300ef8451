import { build } from "../../tsup.shared.js"
export default build({ index: "src/index.ts", "sql/index": "src/sql/index.ts", "testing/index": "src/testing/index.ts", "codegen/index": "src/codegen/index.ts" })
