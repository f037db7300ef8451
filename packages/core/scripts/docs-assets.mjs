// Copies Redoc's standalone bundle (and its license notices) into dist/docs/, where `atrium serve`
// serves it for GET /docs: the page loads nothing from outside the server.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const bundles = dirname(createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js"))
const out = new URL("../dist/docs/", import.meta.url).pathname
mkdirSync(out, { recursive: true })
// Third-party notices under names without "LICENSE": pnpm packs the workspace's LICENSE into a
// package only when the package has no file of that name.
copyFileSync(join(bundles, "redoc.standalone.js.LICENSE.txt"), join(out, "redoc.standalone.js.notices.txt"))

// The one request Redoc makes elsewhere: the Redocly logo beside "API docs by Redocly", from its
// CDN. The logo becomes an inline image; the credit and its link stay. A Redoc that no longer
// has this URL fails the build, so an upgrade is looked at.
const LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
const script = readFileSync(join(bundles, "redoc.standalone.js"), "utf8")
if (!script.includes(LOGO)) throw new Error(`docs-assets: ${LOGO} is no longer in Redoc's bundle; check what it loads now`)
const inlineLogo = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='6' fill='%23e53935'/%3E%3C/svg%3E"
writeFileSync(
  join(out, "redoc.standalone.js"),
  script.replaceAll(LOGO, inlineLogo).replace("redoc.standalone.js.LICENSE.txt", "redoc.standalone.js.notices.txt")
)
copyFileSync(join(dirname(bundles), "LICENSE"), join(out, "redoc-notice.txt"))
