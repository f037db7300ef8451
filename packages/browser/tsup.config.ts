import { build } from "../../tsup.shared.js"
// An ES module for browsers (and bundlers): no Node target or built-ins. @atrium/client's call and
// AtriumError are bundled in, code and types (tsconfig.json's `paths`), so it has no dependencies.
export default build(
  { index: "src/index.ts" },
  {
    format: ["esm"],
    target: "es2022",
    platform: "neutral",
    noExternal: ["@atrium/client"],
    esbuildOptions: (options) => {
      options.conditions = ["@atrium/source"]
    }
  }
)
