// The deployable folder: dist/handler.mjs (everything bundled into one ES module, so a cold start
// loads one file instead of several hundred) and dist/node_modules with better-sqlite3, the one
// native addon, which cannot be bundled (a bundler cannot inline its .node binary). Zip dist/ as it is.
import { cpSync, mkdirSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { defineConfig } from "tsup"
import { nodeBundle } from "../../tsup.shared.js"

const here = fileURLToPath(new URL(".", import.meta.url))

const packageDir = (from: string, name: string) => dirname(createRequire(from).resolve(`${name}/package.json`))

/** Copies the files better-sqlite3 loads at run time (its JS, the addon, `bindings` and its one dependency). */
const shipNativeModules = () => {
  const target = join(here, "dist", "node_modules")
  rmSync(target, { recursive: true, force: true })
  const sqlite = packageDir(join(here, "package.json"), "@atrium/sql-sqlite")
  const betterSqlite = packageDir(join(sqlite, "package.json"), "better-sqlite3")
  const bindings = packageDir(join(betterSqlite, "package.json"), "bindings")
  const fileUri = packageDir(join(bindings, "package.json"), "file-uri-to-path")
  const copy = (from: string, name: string, files: ReadonlyArray<string>) => {
    for (const file of files) {
      mkdirSync(dirname(join(target, name, file)), { recursive: true })
      cpSync(join(from, file), join(target, name, file), { recursive: true, dereference: true })
    }
  }
  copy(betterSqlite, "better-sqlite3", ["package.json", "lib", "build/Release/better_sqlite3.node"])
  copy(bindings, "bindings", ["package.json", "bindings.js"])
  copy(fileUri, "file-uri-to-path", ["package.json", "index.js"])
}

export default defineConfig({
  entry: { handler: "src/handler.ts" },
  ...nodeBundle,
  outExtension: () => ({ js: ".mjs" }),
  outDir: "dist",
  clean: true,
  minify: true,
  sourcemap: true,
  onSuccess: async () => shipNativeModules()
})
