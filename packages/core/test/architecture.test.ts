/**
 * The joints of the house, checked on the sources: what a folder may import
 * (docs/architecture.md, "Domain events").
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"

const src = join(import.meta.dirname, "../src")

/** The folders of core's sources that the files of `folder` import from (relative imports only). */
const importedFolders = (folder: string): Set<string> => {
  const found = new Set<string>()
  for (const file of readdirSync(join(src, folder), { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts")) continue
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
