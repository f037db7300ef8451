/**
 * `GET /docs`: the API reference, rendered in the browser by Redoc from the server's own
 * `/openapi.json`. Redoc's bundle is served from `dist/docs/` (copied there by the build), so
 * the page requests nothing from outside the server; its Content-Security-Policy says so too.
 * `GET /` points there: what a newcomer opening the server's address sees first.
 */
import { existsSync, readFileSync } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"

const ASSET = "redoc.standalone.js"

// Relative URLs: the page at /docs finds /openapi.json and /docs/redoc.standalone.js, under any prefix.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Atrium API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0 }</style>
</head>
<body>
<redoc spec-url="openapi.json" hide-hostname="true"></redoc>
<script src="docs/${ASSET}"></script>
</body>
</html>
`

/** `GET /`: where the API's reference and description are (relative, so they hold under any prefix). */
const ROOT = JSON.stringify({
  name: "Atrium",
  docs: "docs",
  openapi: "openapi.json",
  about: "Atrium's server API: its reference is at /docs, its OpenAPI description at /openapi.json."
}) + "\n"

// Redoc injects its styles (styled-components) and runs its search index in a worker from a blob.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

/** The folder of this module (the CommonJS build gets `import.meta.url` from tsup's shims). */
const here = () => dirname(fileURLToPath(import.meta.url))

/** dist/docs/ beside the built module, or the package's dist/ when running from its sources. */
const assetFile = (): string | undefined =>
  [join(here(), "docs", ASSET), join(here(), "..", "dist", "docs", ASSET)].find((file) => existsSync(file))

export interface DocsPage {
  /** The path when the request is a GET or HEAD of the page or its script; undefined for every other request. */
  readonly pathOf: (req: IncomingMessage) => string | undefined
  /** Answers a request `pathOf` accepted. */
  readonly serve: (path: string, req: IncomingMessage, res: ServerResponse) => void
}

export const docsPage = (): DocsPage => {
  let asset: { readonly plain: Buffer; readonly gzip: Buffer } | undefined
  const loadAsset = () => {
    if (asset) return asset
    const file = assetFile()
    if (file === undefined) return undefined
    const plain = readFileSync(file)
    return (asset = { plain, gzip: gzipSync(plain) })
  }

  const send = (req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer | string) => {
    const bytes = typeof body === "string" ? Buffer.from(body) : body
    res.writeHead(status, { ...headers, "content-length": String(bytes.length), "x-content-type-options": "nosniff" })
    res.end(req.method === "HEAD" ? undefined : bytes)
  }

  return {
    pathOf: (req) => {
      if (req.method !== "GET" && req.method !== "HEAD") return undefined
      const path = (req.url ?? "").split("?")[0]
      return path === "/" || path === "/docs" || path === `/docs/${ASSET}` ? path : undefined
    },
    serve: (path, req, res) => {
      if (path === "/") {
        return send(req, res, 200, { "content-type": "application/json; charset=utf-8" }, ROOT)
      }
      if (path === "/docs") {
        return send(req, res, 200, { "content-type": "text/html; charset=utf-8", "content-security-policy": CONTENT_SECURITY_POLICY, "cache-control": "no-cache" }, PAGE)
      }
      const loaded = loadAsset()
      if (loaded === undefined) {
        return send(req, res, 404, { "content-type": "text/plain; charset=utf-8" }, "The API reference page is not built: run `pnpm build`.\n")
      }
      const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))
      send(req, res, 200, {
        "content-type": "text/javascript; charset=utf-8",
        "cache-control": "public, max-age=86400",
        vary: "accept-encoding",
        ...(gzip ? { "content-encoding": "gzip" } : {})
      }, gzip ? loaded.gzip : loaded.plain)
    }
  }
}
