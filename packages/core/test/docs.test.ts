import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { defaultOptions } from "../src/Config.js"
import { operations } from "../src/operations.js"
import { openApiDocument } from "../src/protocol/OpenApi.js"
import { referenceMarkdown } from "../src/protocol/Reference.js"

const docs = join(__dirname, "..", "..", "..", "docs")

describe("generated documents are current (run `pnpm docs` after changing an operation)", () => {
  it("docs/openapi.json", () => {
    const committed = JSON.parse(readFileSync(join(docs, "openapi.json"), "utf8"))
    expect(committed).toEqual(JSON.parse(JSON.stringify(openApiDocument(operations as any, { headerPrefix: defaultOptions.headerPrefix }))))
  })

  it("docs/reference.md", () => {
    expect(readFileSync(join(docs, "reference.md"), "utf8")).toBe(referenceMarkdown(operations as any))
  })

  it("documents every path of every operation once", () => {
    const document = openApiDocument(operations as any, { headerPrefix: "x-service" })
    const paths = operations.flatMap((op) => op.paths)
    expect(Object.keys(document.paths).sort()).toEqual([...paths].sort())
    expect(new Set(paths).size).toBe(paths.length)
  })
})
