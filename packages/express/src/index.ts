/**
 * @atrium/express: mounts Atrium in an Express 5 app, `app.use("/collab", atrium(handler))`.
 * Express strips the mount path (`req.baseUrl`), so `req.url` is already the
 * path Atrium routes; node-http reads the body and writes the answer. The one
 * Express-specific step: a body parser the host ran before may have consumed
 * the body, and then the body is rebuilt from `req.body`. See docs/adapters/express.md.
 */
import type { AtriumHandler } from "@atrium/core"
import { answerNodeRequest, answerWithBody, declaredOverLimit, type NodeListenerOptions } from "@atrium/node-http"
import type { Request, RequestHandler } from "express"

export interface AtriumMiddlewareOptions {
  /** Called after each answer, e.g. to log one line per request. */
  readonly onResponse?: NodeListenerOptions["onResponse"]
}

/**
 * The raw body back from what a parser left in `req.body`: bytes (`express.raw`)
 * and text (`express.text`) as they are, a parsed object (`express.json`,
 * `express.urlencoded`) serialized again as JSON. A body declared longer than
 * the limit stays one over the limit, whatever it re-serializes to; a declared
 * empty body stays empty (the parsers turn it into `{}`).
 */
const parsedBody = (req: Request, limit: number): string | Uint8Array | undefined => {
  const body: unknown = req.body
  if (body === undefined || body === null || req.headers["content-length"] === "0") return undefined
  if (typeof body === "string" || body instanceof Uint8Array) return body
  return declaredOverLimit(req.headers, limit) ?? JSON.stringify(body)
}

/** Express middleware answering every Atrium path under its mount point (unknown ones with Atrium's NOT_FOUND). */
export const atrium = (handler: AtriumHandler, options: AtriumMiddlewareOptions = {}): RequestHandler => {
  const limit = handler.options.maxBodyBytes
  return (req, res) => {
    const nodeOptions = { path: req.url, ip: req.ip, ...(options.onResponse && { onResponse: options.onResponse }) }
    // A parser that ran before has read the stream to its end; otherwise node-http reads it.
    return req.readableEnded
      ? answerWithBody(handler, req, res, parsedBody(req, limit), nodeOptions)
      : answerNodeRequest(handler, req, res, nodeOptions)
  }
}

/** The realtime WebSocket on the app's `http.Server` (docs/realtime.md): node-http's, for one import. */
export { type AttachedRealtime, attachRealtime, type RealtimeOptions } from "@atrium/node-http"
