/** The storage conformance suite on SQLite, in a temporary database file, with each client and with the direct path off. */
import { storageSuite } from "@atrium/core/testing"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqliteStorage } from "../src/index.js"

const onTempFile = (client: "lean" | "effect", directStatements = true) =>
  Layer.unwrapScoped(
    Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "atrium-storage-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    ).pipe(Effect.map((dir) => SqliteStorage.layer({ filename: join(dir, "atrium.db"), client, directStatements })))
  )

await storageSuite("sqlite (lean client)", () => onTempFile("lean"))
await storageSuite("sqlite (lean client, direct statements off)", () => onTempFile("lean", false))
await storageSuite("sqlite (effect client)", () => onTempFile("effect"))
