import { defineConfig } from "tsup"
import { build, nodeBundle } from "../../tsup.shared.js"

export default [
  // The library entry: dependencies stay external, as for every package.
  ...[build({ index: "src/index.ts" })].flat(),
  // The `atrium` command: one bundle, so the process loads a few modules instead of several
  // hundred (startup and resident memory, docs/benchmarks.md). Split into chunks so that what is
  // imported dynamically (the trace exporter) is not even parsed unless used. better-sqlite3 is a
  // native addon and stays external (and the build copies the core's docs/ beside it, for GET /docs); the banner gives bundled CommonJS code `require`, `__filename` and `__dirname`.
  defineConfig({ ...nodeBundle, entry: { cli: "src/cli.ts" }, outDir: "dist", sourcemap: true, clean: false, splitting: true })
]
