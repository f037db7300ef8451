/**
 * Redoc's standalone bundle, read once from where it ships: `@atrium/core`'s own `dist/docs/`
 * (scripts/docs-assets.mjs puts it there), or `docs/` beside a bundle that inlined the core
 * (`atrium serve`'s dist/cli.js, whose build copies it). Undefined when neither has it: a bundler
 * left it behind, and the page says so.
 */
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

export const REDOC_ASSET = "redoc.standalone.js"

const candidates = (): ReadonlyArray<() => string> => [
  () => join(dirname(createRequire(import.meta.url).resolve("@atrium/core/package.json")), "dist", "docs", REDOC_ASSET),
  () => join(dirname(fileURLToPath(import.meta.url)), "docs", REDOC_ASSET)
]

const assetFile = (): string | undefined => {
  for (const candidate of candidates()) {
    try {
      const file = candidate()
      if (existsSync(file)) return file
    } catch {
      // Not resolvable from here (a bundle without node_modules): try the next place.
    }
  }
  return undefined
}

let loaded: { readonly script: string | undefined } | undefined

export const redocAsset = (): string | undefined => {
  if (loaded === undefined) {
    const file = assetFile()
    loaded = { script: file === undefined ? undefined : readFileSync(file, "utf8") }
  }
  return loaded.script
}
