/**
 * @atrium/node-http: mounts Atrium on `node:http` (and anything that hands out
 * IncomingMessage/ServerResponse pairs). Adapter authors: this file uses only
 * `createAtrium`'s `AtriumHandler` and the `AtriumRequest`/`AtriumResponse` shapes.
 */
import { type AtriumHandler, type AtriumRequest, type AtriumResponse, errorBody, httpStatusOf, notFound } from "@atrium/core"
import type { IncomingMessage, ServerResponse } from "node:http"

export interface NodeListenerOptions {
  /** Path prefix the API is mounted under, e.g. `/collab`. Requests outside it get NOT_FOUND (or go to `next`). */
  readonly basePath?: string
  /** Called after each answer, e.g. to log one line per request. */
  readonly onResponse?: (request: AtriumRequest, response: AtriumResponse, durationMillis: number) => void
}

export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

/** Reads the body, stopping once it is longer than `limit` (what was read is enough to refuse it). */
export const readBody = (req: IncomingMessage, limit: number): Promise<Buffer | undefined> =>
  new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"])
    if (declared > limit) return resolve(Buffer.alloc(limit + 1))
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

const normalizeBase = (basePath: string | undefined) => {
  if (basePath === undefined || basePath === "" || basePath === "/") return ""
  return "/" + basePath.replace(/^\/+|\/+$/g, "")
}

const outsideBase = (url: string): AtriumResponse => ({
  status: httpStatusOf.NOT_FOUND,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: errorBody(notFound(`No operation at ${url.split("?", 1)[0]}.`))
})

/** Writes an Atrium answer; a refused oversized body also closes the connection rather than read the rest. */
export const writeResponse = (res: ServerResponse, response: AtriumResponse, closeConnection = false) => {
  const headers: Record<string, string | number> = { ...response.headers, "content-length": Buffer.byteLength(response.body) }
  if (closeConnection) headers.connection = "close"
  res.writeHead(response.status, headers)
  res.end(response.body)
}

/** A `(req, res)` listener answering every Atrium operation under `basePath`. */
export const toNodeListener = (atrium: AtriumHandler, options: NodeListenerOptions = {}): NodeListener => {
  const base = normalizeBase(options.basePath)
  const limit = atrium.options.maxBodyBytes
  return (req, res, next) => {
    const started = options.onResponse ? performance.now() : 0
    const url = req.url ?? "/"
    let path = url
    if (base !== "") {
      if (url !== base && !url.startsWith(base + "/") && !url.startsWith(base + "?")) {
        if (next) return next()
        req.resume() // drain the body so the connection can be reused
        return writeResponse(res, outsideBase(url))
      }
      path = url.slice(base.length) || "/"
    }
    const method = req.method ?? "GET"
    const answer = (body: Buffer | undefined) => {
      const request: AtriumRequest = { method, path, headers: req.headers, body, ip: req.socket.remoteAddress }
      return atrium.handle(request).then((response) => {
        writeResponse(res, response, body !== undefined && body.length > limit)
        options.onResponse?.(request, response, performance.now() - started)
      })
    }
    if (method === "GET" || method === "HEAD") return void answer(undefined)
    readBody(req, limit).then(answer, (error) => {
      // The client went away mid-body: nothing left to answer.
      if (!res.headersSent) res.destroy(error as Error)
    })
  }
}
