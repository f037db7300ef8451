/**
 * The joints of the house, checked on the sources: what a folder may import
 * (docs/architecture.md, "Domain events"), and that every domain is in the list of descriptors
 * the registries derive from (docs/architecture.md, "A new domain").
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { domains } from "../src/domains.js"

const src = join(import.meta.dirname, "../src")

/** The folders of core's sources that the files of `folder` import from (relative imports only), `except` some files. */
const importedFolders = (folder: string, except: ReadonlyArray<string> = []): Set<string> => {
  const found = new Set<string>()
  for (const file of readdirSync(join(src, folder), { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts") || except.includes(file)) continue
    for (const [, path] of readFileSync(join(src, folder, file), "utf8").matchAll(/from "(\.[^"]+)"/g)) {
      const target = join(folder, file, "..", path!)
      found.add(target.split("/")[0]!)
    }
  }
  return found
}

it("events/ imports nothing from webhooks/ or deliveries/: the outbox is one listener among others", () => {
  const imported = importedFolders("events")
  expect(imported.has("webhooks")).toBe(false)
  expect(imported.has("deliveries")).toBe(false)
  // The check itself reads imports: deliveries/ does import events/.
  expect(importedFolders("deliveries").has("events")).toBe(true)
})

it("sql/ imports no domain folder: the SQL composition root (SqlStorage.ts) stands beside Storage.ts", () => {
  const infrastructure = new Set(["sql", "ports", "crypto", "schema", "Config.ts", "TextOrder.ts"])
  // index.ts is the `@atrium/core/sql` entry: it hands out the composition root with the rest.
  expect([...importedFolders("sql", ["index.ts"])].filter((folder) => !infrastructure.has(folder))).toEqual([])
})

it("code generation stands apart: nothing but codegen/ imports it, and it imports only the request path's protocol/ (issue 22)", () => {
  const folders = readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== "codegen").map((entry) => entry.name)
  expect(folders.filter((folder) => importedFolders(folder).has("codegen"))).toEqual([])
  // The main entry and the handler: the recorded examples are data handed in, never imported.
  for (const file of ["index.ts", "Atrium.ts"]) expect(readFileSync(join(src, file), "utf8"), file).not.toMatch(/from "\.\/codegen\//)
  expect([...importedFolders("codegen")].filter((folder) => folder !== "codegen" && folder !== "protocol")).toEqual([])
  // Not vacuous: the generators read the operation rows' errors and ids.
  expect(importedFolders("codegen").has("protocol")).toBe(true)
})

it("no domain service speaks the wire format: only schemas and operation rows import protocol/Envelope (issue 22)", () => {
  const domains = readdirSync(src).filter((entry) => existsSync(join(src, entry, "operations.ts")))
  const services = domains.flatMap((domain) =>
    readdirSync(join(src, domain))
      .filter((file) => file.endsWith(".ts") && !/(Schemas|[oO]perations)\.ts$/.test(file))
      .map((file) => `${domain}/${file}`)
  )
  expect(services).toContain("documents/Documents.ts")
  const speaking = services.filter((file) => readFileSync(join(src, file), "utf8").includes(`from "../protocol/Envelope.js"`))
  expect(speaking).toEqual([])
})

it("no module of core imports itself back through others", () => {
  const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"))
  const edges = new Map(files.map((file) => [file, [...readFileSync(join(src, file), "utf8").matchAll(/^import (?!type )[^;]*? from "(\.[^"]+)"/gm)]
    .map(([, path]) => join(file, "..", path!).replace(/\.js$/, ".ts"))]))
  const cycles: Array<string> = []
  const state = new Map<string, "open" | "done">()
  const visit = (file: string, trail: Array<string>) => {
    if (state.get(file) === "done") return
    if (state.get(file) === "open") return void cycles.push([...trail.slice(trail.indexOf(file)), file].join(" → "))
    state.set(file, "open")
    for (const next of edges.get(file) ?? []) visit(next, [...trail, file])
    state.set(file, "done")
  }
  for (const file of files) visit(file, [])
  expect(cycles).toEqual([])
})

/** Folders of core's sources that are not domains: the request path, ports, infrastructure, code generation, test support. */
const NOT_DOMAINS = ["codegen", "crypto", "events", "ports", "protocol", "schema", "sql", "testing"]

/** Domain folders being built and not yet registered: delete an entry when its descriptor joins domains.ts. */
const PENDING_DOMAINS: ReadonlyArray<string> = []

it("every domain folder is in the list of descriptors (domains.ts), under its folder's name, and nothing else is", () => {
  const folders = readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
  const domainFolders = folders.filter((folder) => !NOT_DOMAINS.includes(folder) && !PENDING_DOMAINS.includes(folder))
  for (const folder of PENDING_DOMAINS) expect(domains.map((domain) => domain.name), `${folder} is registered: no longer pending`).not.toContain(folder)
  // A folder with a service but no descriptor would have no operations, no storage and no jobs' tables.
  expect(domains.map((domain) => domain.name).sort()).toEqual(domainFolders.sort())
  for (const domain of domains) expect(existsSync(join(src, domain.name, "domain.ts")), `${domain.name}/domain.ts`).toBe(true)
  for (const folder of NOT_DOMAINS) expect(folders, folder).toContain(folder)
})
