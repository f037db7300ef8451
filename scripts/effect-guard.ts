/**
 * Entries that refuse a wrong Effect before anything imports it (issue 27; docs/decisions.md,
 * "Effect 4"). Under Node, an ES module's whole static graph is linked before any of it runs, so
 * under Effect 4 (which dropped modules Atrium and `@effect/*` 3 import) a package failed with
 * "Cannot find module '…/effect/dist/RuntimeFlags.js'" before any check could run. So each entry that
 * imports Effect becomes a small module that reads the installed effect's version first and only
 * then imports the real one (`<entry>.impl.js`); the CommonJS entry does the same with `require`.
 * Bundlers are pointed at the real modules by the `module` export condition: a bundle inlines its
 * Effect, and a top-level await would stop a CommonJS bundle.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"

/** Whether a built ES module imports Effect itself (an entry that only imports other Atrium packages leaves the check to them). */
const importsEffect = (source: string) => /\bfrom\s*["'](effect|@effect\/[^"']+)(\/[^"']*)?["']/.test(source)

/** The names an esbuild ES module exports (its closing `export { a, b as c };`). */
const exportedNames = (source: string): Array<string> => {
  const statement = [...source.matchAll(/^export\s*\{([^}]*)\};?\s*$/gm)].at(-1)
  if (statement === undefined) return []
  return statement[1]!.split(",").map((part) => part.trim()).filter((part) => part !== "").map((part) => part.split(/\s+as\s+/).at(-1)!)
}

const check = (packageName: string, peerRange: string, requireLine: string) => `${requireLine}
const __atriumEffect = (() => {
  try {
    return __atriumRequire("effect/package.json").version;
  } catch {
    return undefined; // not installed: the import below says so
  }
})();
if (__atriumEffect !== undefined && !__atriumEffect.startsWith("3.")) {
  throw new Error("${packageName} needs Effect 3 (its peer dependency effect@${peerRange}), but effect@" + __atriumEffect + " is installed here: install effect@^3 (npm install effect@^3) or remove the newer copy.");
}
`

/** Moves a built file (and its source map) to `<name>.impl.<ext>` and points the map comment at the new name. */
const moveToImpl = (dir: string, name: string, ext: "js" | "cjs") => {
  const from = join(dir, `${name}.${ext}`)
  const to = join(dir, `${name}.impl.${ext}`)
  const source = readFileSync(from, "utf8")
  writeFileSync(to, source.replace(`//# sourceMappingURL=${basename(name)}.${ext}.map`, `//# sourceMappingURL=${basename(name)}.impl.${ext}.map`))
  if (existsSync(`${from}.map`)) renameSync(`${from}.map`, `${to}.map`)
  return source
}

/** Wraps each built entry of the package in `cwd` that imports Effect; run after tsup (its `onSuccess`). */
export const guardEntries = (entryNames: ReadonlyArray<string>, cwd = process.cwd(), outDir = "dist") => {
  const manifest = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8"))
  const peerRange: string = manifest.peerDependencies?.effect ?? "^3"
  for (const name of entryNames) {
    const dir = join(cwd, outDir)
    const esm = join(dir, `${name}.js`)
    if (!existsSync(esm) || !importsEffect(readFileSync(esm, "utf8"))) continue
    const source = moveToImpl(dir, name, "js")
    const names = exportedNames(source)
    const impl = `./${basename(name)}.impl.js`
    writeFileSync(
      esm,
      check(manifest.name, peerRange, `import { createRequire as __atriumCreateRequire } from "node:module";\nconst __atriumRequire = __atriumCreateRequire(import.meta.url);`) +
        `const __atriumModule = await import("${impl}");\n` +
        (names.includes("default") ? "export default __atriumModule.default;\n" : "") +
        (names.some((n) => n !== "default") ? `export const { ${names.filter((n) => n !== "default").join(", ")} } = __atriumModule;\n` : "")
    )
    if (existsSync(join(dir, `${name}.cjs`))) {
      moveToImpl(dir, name, "cjs")
      writeFileSync(join(dir, `${name}.cjs`), `"use strict";\n${check(manifest.name, peerRange, "const __atriumRequire = require;")}module.exports = require("./${basename(name)}.impl.cjs");\n`)
    }
  }
}
