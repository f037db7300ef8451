import { notFound } from "./ApiError.js"
import type { AtriumResponse } from "./Dispatcher.js"
import { errorBody } from "./Envelope.js"
import { httpStatusOf } from "./ErrorStatus.js"

/** `collab/`, `/collab`, `//collab//` → `/collab`; nothing or `/` → `""` (mounted at the root). */
export const normalizeBasePath = (basePath: string | undefined): string => {
  if (basePath === undefined || basePath === "" || basePath === "/") return ""
  return "/" + basePath.replace(/^\/+|\/+$/g, "")
}

/**
 * The path under `base` (`/collab?x` is the mount point itself: `/?x`), or
 * undefined when `url` lies outside it. Adapters route with it.
 */
export const pathUnder = (base: string, url: string): string | undefined => {
  if (base === "") return url
  if (url !== base && !url.startsWith(base + "/") && !url.startsWith(base + "?")) return undefined
  const rest = url.slice(base.length)
  return rest.startsWith("/") ? rest : "/" + rest
}

/** The answer for a request outside the mount point, when no host route takes it. */
export const notMounted = (url: string): AtriumResponse => ({
  status: httpStatusOf.NOT_FOUND,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: errorBody(notFound(`No operation at ${url.split("?", 1)[0]}.`))
})
