/**
 * @atrium/node-http: mounts Atrium on `node:http` (and anything that hands out
 * IncomingMessage/ServerResponse pairs). Adapter authors: this file uses only
 * `createAtrium`'s `AtriumHandler` and the `AtriumRequest`/`AtriumResponse` shapes.
 */
import { type AtriumHandler, type AtriumRequest, type AtriumResponse, normalizeBasePath, notMounted, pathUnder } from "@atrium/core"
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http"
import type { Readable } from "node:stream"

export interface NodeListenerOptions {
  /** Path prefix the API is mounted under, e.g. `/collab`. Requests outside it get NOT_FOUND (or go to `next`). */
  readonly basePath?: string
  /** Called after each answer, e.g. to log one line per request. */
  readonly onResponse?: (request: AtriumRequest, response: AtriumResponse, durationMillis: number) => void
}

export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

/** A body that stands for one over `limit` when the request declares more than `limit` bytes (refused unread). */
export const declaredOverLimit = (headers: IncomingHttpHeaders, limit: number): Buffer | undefined =>
  Number(headers["content-length"]) > limit ? Buffer.alloc(limit + 1) : undefined

/**
 * Reads the body, stopping once it is longer than `limit` (what was read is enough to refuse it).
 * `req` may be any readable stream (e.g. one a framework hands out); `headers` default to its own.
 */
export const readBody = (
  req: Readable,
  limit: number,
  headers: IncomingHttpHeaders = (req as Partial<IncomingMessage>).headers ?? {}
): Promise<Buffer | undefined> =>
  new Promise((resolve, reject) => {
    const refused = declaredOverLimit(headers, limit)
    if (refused !== undefined) return resolve(refused)
    const chunks: Array<Buffer> = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      chunks.push(chunk)
      if (size > limit) {
        req.off("data", onData)
        req.off("end", onEnd)
        req.pause()
        resolve(Buffer.concat(chunks))
      }
    }
    const onEnd = () => resolve(chunks.length === 0 ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))
    req.on("data", onData)
    req.on("end", onEnd)
    req.on("error", reject)
  })

/** Writes an Atrium answer; a refused oversized body also closes the connection rather than read the rest. */
export const writeResponse = (res: ServerResponse, response: AtriumResponse, closeConnection = false) => {
  // A 204 (a preflight's answer) carries no body and, by RFC 9110, no Content-Length.
  const headers: Record<string, string | number> = response.status === 204 ? { ...response.headers } : { ...response.headers, "content-length": Buffer.byteLength(response.body) }
  if (closeConnection) headers.connection = "close"
  res.writeHead(response.status, headers)
  res.end(response.body)
}

export interface NodeRequestOptions {
  /** The path after the mount prefix, with its query string. */
  readonly path: string
  /** Client address (default: the socket's). */
  readonly ip?: string | undefined
  readonly onResponse?: NodeListenerOptions["onResponse"]
}

const answer = (
  atrium: AtriumHandler,
  req: IncomingMessage,
  res: ServerResponse,
  body: string | Uint8Array | undefined,
  options: NodeRequestOptions,
  started: number,
  closeConnection: boolean
): Promise<void> => {
  const request: AtriumRequest = {
    method: req.method ?? "GET",
    path: options.path,
    headers: req.headers,
    body,
    ip: options.ip ?? req.socket.remoteAddress
  }
  return atrium.handle(request).then((response) => {
    writeResponse(res, response, closeConnection)
    options.onResponse?.(request, response, performance.now() - started)
  })
}

/** Answers `req` with a body the host already read (e.g. with a framework's body parser). */
export const answerWithBody = (
  atrium: AtriumHandler,
  req: IncomingMessage,
  res: ServerResponse,
  body: string | Uint8Array | undefined,
  options: NodeRequestOptions
): Promise<void> => answer(atrium, req, res, body, options, options.onResponse ? performance.now() : 0, false)

/** Reads the body of `req` (none for GET and HEAD), then answers it. */
export const answerNodeRequest = (atrium: AtriumHandler, req: IncomingMessage, res: ServerResponse, options: NodeRequestOptions): Promise<void> => {
  const started = options.onResponse ? performance.now() : 0
  if (req.method === "GET" || req.method === "HEAD") return answer(atrium, req, res, undefined, options, started, false)
  const limit = atrium.options.maxBodyBytes
  return readBody(req, limit).then(
    // Past the limit the rest of the body is left unread: close the connection after answering.
    (body) => answer(atrium, req, res, body, options, started, body !== undefined && body.length > limit),
    (error) => {
      // The client went away mid-body: nothing left to answer.
      if (!res.headersSent) res.destroy(error as Error)
    }
  )
}

/** A `(req, res)` listener answering every Atrium operation under `basePath`. */
export const toNodeListener = (atrium: AtriumHandler, options: NodeListenerOptions = {}): NodeListener => {
  const base = normalizeBasePath(options.basePath)
  const onResponse = options.onResponse
  return (req, res, next) => {
    const url = req.url ?? "/"
    const path = pathUnder(base, url)
    if (path === undefined) {
      if (next) return next()
      req.resume() // drain the body so the connection can be reused
      return writeResponse(res, notMounted(url))
    }
    void answerNodeRequest(atrium, req, res, { path, ...(onResponse && { onResponse }) })
  }
}
export { type AttachedRealtime, attachRealtime, type RealtimeOptions } from "./Realtime.js"
export { defaultLogSettings, type Log, LOG_FORMATS, LOG_LEVELS, type LogSettings, makeLog, type RequestEntry } from "./Log.js"
