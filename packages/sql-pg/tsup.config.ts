import { build } from "../../tsup.shared.js"
export default build({ index: "src/index.ts", "testing/index": "src/testing/index.ts" })
