/**
 * `GET /docs`: the API reference, rendered in the browser by Redoc from the handler's own
 * `/openapi.json`, and `GET /`: where it is. Served by the handler itself, so every adapter (and
 * `atrium serve`) answers them under its mount path. Redoc's bundle ships in `@atrium/core`'s
 * `dist/docs/` (copied there by the build), so the page requests nothing from outside the host;
 * its Content-Security-Policy says so too.
 */
import { Effect } from "effect"
import type { DocumentHandler } from "./Dispatcher.js"
import { REDOC_ASSET, redocAsset } from "./RedocAsset.js"

// Relative URLs: the page at <mount>/docs finds <mount>/openapi.json and its script under any mount path.
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
<script src="docs/${REDOC_ASSET}"></script>
</body>
</html>
`

/** `GET /`: the reference and the description, relative to the mount path. */
const ROOT = JSON.stringify({
  name: "Atrium",
  docs: "docs",
  openapi: "openapi.json",
  about: "Atrium's server API: its reference is at /docs, its OpenAPI description at /openapi.json."
})

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

const NOT_SHIPPED = `The API reference page's script is missing: @atrium/core ships it as dist/docs/${REDOC_ASSET} (run \`pnpm build\` in a clone; a bundler must copy that file beside its output).\n`

/** The documents the handler serves beside `/openapi.json` for the reference page. */
export const docsDocuments: Readonly<Record<string, DocumentHandler<never>>> = {
  "/": Effect.succeed({ status: 200, body: ROOT }),
  "/docs": Effect.succeed({
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": CONTENT_SECURITY_POLICY, "cache-control": "no-cache" },
    body: PAGE
  }),
  [`/docs/${REDOC_ASSET}`]: Effect.sync(() => {
    const script = redocAsset()
    return script === undefined
      ? { status: 404, headers: { "content-type": "text/plain; charset=utf-8" }, body: NOT_SHIPPED }
      : { status: 200, headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" }, body: script }
  })
}
