import { defineConfig } from "tsup"
import { build } from "../../tsup.shared.js"

export default [
  // The library entry: dependencies stay external, as for every package.
  ...[build({ index: "src/index.ts" })].flat(),
  // The `atrium` command: one bundled file, so the process loads one module instead of
  // several hundred (startup and resident memory, docs/benchmarks.md). better-sqlite3 is a
  // native addon and stays external; the banner gives bundled CommonJS code `require`, `__filename` and `__dirname`.
  defineConfig({
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
    target: "node20",
    outDir: "dist",
    sourcemap: true,
    clean: false,
    splitting: false,
    noExternal: [/^(?!better-sqlite3$).*/],
    banner: {
      js: [
        "import { createRequire as __atriumCreateRequire } from 'node:module';",
        "import { fileURLToPath as __atriumFileURLToPath } from 'node:url';",
        "const require = __atriumCreateRequire(import.meta.url);",
        "const __filename = __atriumFileURLToPath(import.meta.url);",
        "const __dirname = __atriumFileURLToPath(new URL('.', import.meta.url));"
      ].join(" ")
    }
  })
]
