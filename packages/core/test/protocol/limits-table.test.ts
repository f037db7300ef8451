/**
 * docs/protocol.md's "Limits" table is the caps the schemas declare (issue 21; lists, lists
 * together, and values' sizes as JSON), both ways: a cap
 * added, changed or dropped in a schema without the table fails here, and so does a row no schema
 * declares.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { operations } from "../../src/operations.js"
import { listCaps } from "../../src/protocol/ListCaps.js"
import { openApiDocument } from "../../src/protocol/OpenApi.js"

const protocolDoc = readFileSync(join(__dirname, "..", "..", "..", "..", "docs", "protocol.md"), "utf8")

/** The table's rows as `<paths> | <list> | <max>`. */
const documented = () => {
  const section = protocolDoc.split("\n## Limits\n")[1]?.split("\n## ")[0] ?? ""
  return section.split("\n")
    .filter((line) => line.startsWith("| `/"))
    .map((line) => line.slice(1, -1).split(" | ").map((cell) => cell.trim()).join(" | "))
}

const declared = () =>
  operations.flatMap((operation) =>
    listCaps(operation.input).map((cap) =>
      [
        operation.paths.map((path) => `\`${path}\``).join(", "),
        "counted" in cap ? `${cap.counted} (together)` : "bytes" in cap ? `\`${cap.path}\` (bytes of JSON)` : `\`${cap.path}\``,
        String("counted" in cap ? cap.max : "bytes" in cap ? cap.bytes : cap.maxItems)
      ].join(" | ")
    )
  )

describe("docs/protocol.md, Limits", () => {
  it("lists every cap the operations' schemas declare, and nothing else", () => {
    const rows = documented()
    expect(rows.length).toBeGreaterThan(50)
    expect([...rows].sort()).toEqual([...declared()].sort())
  })
})

describe("the OpenAPI document", () => {
  it("states each cap on lists together in its operation's description (JSON Schema has no keyword for it)", () => {
    const document = openApiDocument(operations, { headerPrefix: "x-service" }) as { paths: Record<string, { post: { description: string } }> }
    const together = operations.flatMap((operation) => listCaps(operation.input).flatMap((cap) => "counted" in cap ? [[operation.paths[0]!, cap] as const] : []))
    expect(together.map(([path]) => path)).toContain("/v2/notifications/config/set")
    for (const [path, cap] of together) expect(document.paths[path]!.post.description).toContain(`At most ${cap.max} ${cap.counted} per call.`)
  })
})
