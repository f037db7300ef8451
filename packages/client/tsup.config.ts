import { build } from "../../tsup.shared.js"
// Browsers load it too: no Node target or built-ins.
export default build({ index: "src/index.ts" }, { target: "es2022", platform: "neutral" })
