import { defineConfig, type Options } from "tsup"
import { guardEntries } from "./scripts/effect-guard.js"

/**
 * Every package builds to ESM + CJS + .d.ts from the same entry list; an entry that imports Effect
 * then checks the installed Effect's major before loading (scripts/effect-guard.ts).
 */
export const build = (entry: Record<string, string>, extra: Partial<Options> = {}) =>
  defineConfig({
    entry,
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
    outDir: "dist",
    splitting: false,
    onSuccess: async () => guardEntries(Object.keys(entry)),
    ...extra
  })

/**
 * Settings for a single-file ES module bundle that runs on Node (the `atrium` command, the Lambda
 * example): everything inlined but the native better-sqlite3 addon, and the banner that gives
 * bundled CommonJS code `require`, `__filename` and `__dirname`.
 */
export const nodeBundle: Partial<Options> = {
  format: ["esm"],
  platform: "node",
  target: "node20",
  splitting: false,
  noExternal: [/^(?!better-sqlite3$).*/],
  external: ["better-sqlite3"],
  banner: {
    js: [
      "import { createRequire as __atriumCreateRequire } from 'node:module';",
      "import { fileURLToPath as __atriumFileURLToPath } from 'node:url';",
      "const require = __atriumCreateRequire(import.meta.url);",
      "const __filename = __atriumFileURLToPath(import.meta.url);",
      "const __dirname = __atriumFileURLToPath(new URL('.', import.meta.url));"
    ].join(" ")
  }
}
