/** A new database, its folder and its WAL files are private to the server's user. */
import { createAtrium } from "@atrium/core"
import { createTestWorkspace, directClient } from "@atrium/core/testing"
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { SqliteStorage } from "../src/index.js"

const mode = (path: string) => statSync(path).mode & 0o777

describe("SQLite file permissions", () => {
  const dirs: Array<string> = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it("creates the database 0600 in a new folder 0700, and SQLite gives -wal and -shm the same", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atrium-perm-"))
    dirs.push(dir)
    const filename = join(dir, "data", "atrium.db")
    const atrium = createAtrium({ storage: SqliteStorage.layer({ filename }) })
    try {
      await atrium.ready()
      await createTestWorkspace(directClient(atrium)) // a write: the WAL exists
      expect(mode(join(dir, "data"))).toBe(0o700)
      expect(mode(filename)).toBe(0o600)
      expect(mode(`${filename}-wal`)).toBe(0o600)
      expect(mode(`${filename}-shm`)).toBe(0o600)
    } finally {
      await atrium.dispose()
    }
  })

  it("leaves an existing file's permissions as its operator set them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atrium-perm-"))
    dirs.push(dir)
    const filename = join(dir, "atrium.db")
    writeFileSync(filename, "")
    chmodSync(filename, 0o640)
    const atrium = createAtrium({ storage: SqliteStorage.layer({ filename }) })
    try {
      await atrium.ready()
      expect(mode(filename)).toBe(0o640)
    } finally {
      await atrium.dispose()
    }
  })
})
