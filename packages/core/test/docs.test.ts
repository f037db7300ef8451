import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { defaultOptions } from "../src/Config.js"
import { operations } from "../src/operations.js"
import { browserSource, clientSource } from "../src/codegen/ClientSource.js"
import { examples } from "../src/codegen/Examples.js"
import { referenceMarkdown } from "../src/codegen/Reference.js"
import { openApiDocument } from "../src/protocol/OpenApi.js"
import { operationIdOf } from "../src/protocol/OperationIds.js"

const docs = join(__dirname, "..", "..", "..", "docs")

describe("generated documents are current (run `pnpm docs` after changing an operation)", () => {
  it("docs/openapi.json", () => {
    const committed = JSON.parse(readFileSync(join(docs, "openapi.json"), "utf8"))
    expect(committed).toEqual(JSON.parse(JSON.stringify(openApiDocument(operations as any, { headerPrefix: defaultOptions.headerPrefix, examples }))))
  })

  it("docs/reference.md", () => {
    expect(readFileSync(join(docs, "reference.md"), "utf8")).toBe(referenceMarkdown(operations as any))
  })

  it("packages/client/src/Operations.generated.ts", () => {
    const committed = readFileSync(join(docs, "..", "packages", "client", "src", "Operations.generated.ts"), "utf8")
    expect(committed).toBe(clientSource(operations as any, openApiDocument(operations as any, { headerPrefix: defaultOptions.headerPrefix })))
  })

  it("packages/browser/src/Operations.generated.ts", () => {
    const committed = readFileSync(join(docs, "..", "packages", "browser", "src", "Operations.generated.ts"), "utf8")
    expect(committed).toBe(browserSource(operations as any, openApiDocument(operations as any, { headerPrefix: defaultOptions.headerPrefix })))
  })

  it("documents every path of every operation once", () => {
    const document = openApiDocument(operations as any, { headerPrefix: "x-service" })
    const paths = operations.flatMap((op) => op.paths)
    expect(Object.keys(document.paths).sort()).toEqual([...paths].sort())
    expect(new Set(paths).size).toBe(paths.length)
  })
})

describe("the OpenAPI document", () => {
  const document = openApiDocument(operations as any, { headerPrefix: "x-service", examples })
  const posts = Object.entries(document.paths).map(([path, item]) => [path, (item as any).post] as const)

  it("passes redocly lint with the recommended rules, examples validated against their schemas", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atrium-openapi-"))
    try {
      writeFileSync(join(dir, "openapi.json"), JSON.stringify(document))
      const redocly = join(__dirname, "..", "..", "..", "node_modules", ".bin", "redocly")
      const { stdout } = await promisify(execFile)(redocly, ["lint", join(dir, "openapi.json"), "--format=json"], {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        maxBuffer: 16 << 20
      })
      const report = JSON.parse(stdout.slice(stdout.indexOf("{")))
      expect(report.problems).toEqual([])
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it("has a recorded request and answer for every path, each a success", () => {
    for (const [path, post] of posts) {
      const content = post.requestBody.content["application/json"]
      expect(content.example, path).toEqual(examples[path]!.request)
      const success = post.responses[Object.keys(post.responses).find((status) => status.startsWith("2"))!]
      expect(success.content["application/json"].example, path).toHaveProperty("result")
    }
  })

  it("names every operation in one style, once", () => {
    const ids = posts.map(([, post]) => post.operationId as string)
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/)
    expect(new Set(ids).size).toBe(ids.length)
    expect(operationIdOf("/v2/workspace/email/send-login-link")).toBe("workspaceEmailSendLoginLink")
    expect(operationIdOf("/v1/organizations/documents/add")).toBe("organizationsDocumentsAddV1")
    expect(operationIdOf("/v2/auth/generate_token")).toBe("authGenerateToken")
  })

  it("keeps Effect's filter annotations out of titles and descriptions", () => {
    const text = JSON.stringify({ paths: document.paths, components: document.components })
    expect(text).not.toMatch(/"title":/)
    expect(text).not.toMatch(/character\(s\)|item\(s\)|"a non-negative number"|"\$id"/)
    // Descriptions we wrote stay.
    expect(text).toContain("1 to 256 characters, no control characters.")
  })
})
