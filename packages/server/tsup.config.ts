import { defineConfig } from "tsup"
import { build, nodeBundle } from "../../tsup.shared.js"

export default [
  // The library entry: dependencies stay external, as for every package. Shims give the CommonJS
  // build `import.meta.url` (the docs page finds its assets beside the module).
  ...[build({ index: "src/index.ts" }, { shims: true })].flat(),
  // The `atrium` command: one bundle, so the process loads a few modules instead of several
  // hundred (startup and resident memory, docs/benchmarks.md). Split into chunks so that what is
  // imported dynamically (the trace exporter) is not even parsed unless used. better-sqlite3 is a
  // native addon and stays external; the banner gives bundled CommonJS code `require`, `__filename` and `__dirname`.
  defineConfig({ ...nodeBundle, entry: { cli: "src/cli.ts" }, outDir: "dist", sourcemap: true, clean: false, splitting: true })
]
