/**
 * Every built entry of every package loads with both `import` and `require`,
 * through the package's own `exports` map (no source condition), in a plain
 * Node process. Needs `pnpm build` first (`pnpm test` builds).
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const packagesDir = join(__dirname, "..", "..")
const packages = ["core", "node-http", "sql-sqlite", "sql-pg", "server"]

const entries = packages.flatMap((dir) => {
  const manifest = JSON.parse(readFileSync(join(packagesDir, dir, "package.json"), "utf8"))
  return Object.keys(manifest.exports)
    .filter((subpath) => subpath !== "./package.json")
    .map((subpath) => (subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`) as string)
})

const probe = `
const { createRequire } = require("node:module")
const req = createRequire(process.cwd() + "/")
const specs = JSON.parse(process.argv[1])
;(async () => {
  const out = {}
  for (const spec of specs) {
    const esm = Object.keys(await import(spec)).sort()
    const cjs = Object.keys(req(spec)).filter((k) => k !== "__esModule").sort()
    out[spec] = { esm, cjs }
  }
  console.log(JSON.stringify(out))
})().catch((e) => { console.error(e); process.exit(1) })
`

describe("built packages", () => {
  it("load every entry with import and require", () => {
    // Run from the server package: it depends on the others, and can name itself.
    const output = execFileSync(process.execPath, ["-e", probe, JSON.stringify(entries)], {
      cwd: join(packagesDir, "server"),
      encoding: "utf8"
    })
    const loaded = JSON.parse(output) as Record<string, { esm: Array<string>; cjs: Array<string> }>
    expect(Object.keys(loaded).sort()).toEqual([...entries].sort())
    for (const [spec, { cjs, esm }] of Object.entries(loaded)) {
      expect(esm.length, spec).toBeGreaterThan(0)
      expect(cjs, spec).toEqual(esm)
    }
    expect(loaded["@atrium/core"]!.esm).toEqual(expect.arrayContaining(["createAtrium", "operations", "ApiError"]))
    expect(loaded["@atrium/core/testing"]!.esm).toEqual(expect.arrayContaining(["MemoryStorage", "directClient"]))
    expect(loaded["@atrium/core/sql"]!.esm).toContain("SqlStorage")
    expect(loaded["@atrium/node-http"]!.esm).toContain("toNodeListener")
    expect(loaded["@atrium/sql-sqlite"]!.esm).toContain("SqliteStorage")
    expect(loaded["@atrium/sql-pg"]!.esm).toEqual(expect.arrayContaining(["PgStorage", "MIGRATIONS_TABLE"]))
    expect(loaded["@atrium/sql-pg/testing"]!.esm).toEqual(["testDatabase"])
    expect(loaded["@atrium/core/testing"]!.esm).toContain("storageSuite")
    expect(loaded["@atrium/server"]!.esm).toEqual(expect.arrayContaining(["serve", "createWorkspace", "migrate"]))
  })
})
