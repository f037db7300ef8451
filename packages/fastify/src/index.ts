/**
 * @atrium/fastify: Atrium as a Fastify 5 plugin,
 * `app.register(atriumPlugin, { atrium: handler, prefix: "/collab" })`.
 * Deliberately not wrapped in `fastify-plugin`: its content-type parser and
 * error handler stay inside its own encapsulated context. See docs/adapters/fastify.md.
 */
import type { AtriumHandler } from "@atrium/core"
import { readBody } from "@atrium/node-http"
import type { FastifyError, FastifyPluginCallback, FastifyReply, FastifyRequest } from "fastify"
import type { Readable } from "node:stream"

export interface AtriumPluginOptions {
  readonly atrium: AtriumHandler
}

/**
 * Fastify's own refusals of a request's content type, raised before any route
 * handler runs (a malformed Content-Type; QUERY without one): Atrium answers
 * those requests itself, so the client gets Atrium's envelope.
 */
const CONTENT_TYPE_REFUSALS = new Set(["FST_ERR_CTP_INVALID_MEDIA_TYPE", "FST_ERR_ROUTE_MISSING_CONTENT_TYPE"])

export const atriumPlugin: FastifyPluginCallback<AtriumPluginOptions> = (fastify, { atrium }, done) => {
  const limit = atrium.options.maxBodyBytes
  const prefix = fastify.prefix

  /** The path after the prefix, as node-http computes it (`/collab?x` is the mount point: `/?x`). */
  const pathOf = (url: string) => {
    const rest = url.slice(prefix.length)
    return rest.startsWith("/") ? rest : "/" + rest
  }

  const answer = async (request: FastifyRequest, reply: FastifyReply, payload: Readable | undefined) => {
    const body = payload === undefined ? undefined : await readBody(payload, limit)
    const response = await atrium.handle({ method: request.method, path: pathOf(request.url), headers: request.headers, body, ip: request.ip })
    // Past the limit the rest of the body was left unread: close the connection after answering.
    if (body !== undefined && body.length > limit) reply.header("connection", "close")
    return reply.code(response.status).headers(response.headers).send(response.body)
  }

  // The host's parsers are not inherited here (only here): every body reaches
  // the handler as the unread stream, and node-http's readBody applies
  // Atrium's own limit, so no Fastify body error (413, empty JSON) can answer first.
  fastify.removeAllContentTypeParsers()
  const unread = (_request: FastifyRequest, payload: Readable, parsed: (error: null, body: Readable) => void) =>
    parsed(null, payload)
  fastify.addContentTypeParser("*", unread)
  // The same parser under the type nearly every request names: Fastify remembers an exact
  // match, while the catch-all alone made it parse the Content-Type again on every request.
  fastify.addContentTypeParser("application/json", unread)

  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    if (CONTENT_TYPE_REFUSALS.has(error.code)) return answer(request, reply, request.raw)
    throw error // anything else is the host's: its error handler answers
  })

  const handler = (request: FastifyRequest, reply: FastifyReply) => answer(request, reply, request.body as Readable | undefined)
  // Every method, so GET or PUT on an operation get Atrium's envelope; `/` is the mount point itself.
  fastify.all("/", handler)
  fastify.all("/*", handler)
  done()
}

/** The realtime WebSocket on the app's `http.Server` (docs/realtime.md): node-http's, for one import. */
export { type AttachedRealtime, attachRealtime, type RealtimeOptions } from "@atrium/node-http"
