import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { type ApiError, permissionDenied } from "./ApiError.js"
import type { AtriumResponse } from "./Dispatcher.js"
import { errorBody } from "./Envelope.js"
import { httpStatusOf } from "./ErrorStatus.js"

/**
 * Browsers calling the client API from other origins (spec client-api.md, "Conventions" 6;
 * docs/decisions.md, "Client API"). Only paths under this prefix answer with CORS headers: the
 * server API is called by the host's backend and sends none.
 */
export const CLIENT_PATH_PREFIX = "/v2/client/"

export const isClientPath = (path: string): boolean => path.startsWith(CLIENT_PATH_PREFIX)

/**
 * The request path's view of the workspaces' allowed domains: whether an API key's list (any
 * key's, for `undefined`) admits an origin. Provided by the workspace domain, which keeps each
 * answer for `cacheTtlMillis` and forgets a key's at once when its list changes.
 */
export class AllowedOrigins extends Context.Tag("@atrium/core/AllowedOrigins")<AllowedOrigins, {
  /** The answer this process keeps, still fresh; undefined when it must ask (`admits`). Synchronous: every client call from a browser asks. */
  readonly known: (apiKey: string | undefined, origin: string) => boolean | undefined
  readonly admits: (apiKey: string | undefined, origin: string) => Effect.Effect<boolean>
}>() {}

/** `localhost`, `127.0.0.1` and `[::1]` on any port, http or https: the spec's "and localhost", a developer's machine. */
const LOOPBACK = /^https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/

/**
 * Origins admitted without asking storage: loopback, and the host that serves Atrium itself (the
 * page and the API on one origin, e.g. Atrium mounted in the host's app: not cross-origin at all,
 * though browsers send `Origin` on every POST).
 */
const admittedAlways = (origin: string, host: string | undefined): boolean =>
  LOOPBACK.test(origin) || (host !== undefined && origin.slice(origin.indexOf("://") + 3) === host.toLowerCase())

const ADMITTED = Effect.succeed(true)
const REFUSED = Effect.succeed(false)

/** Whether a browser page at `origin` may call with a token of `apiKey` (any key's, for `undefined`: a preflight names none). */
export const originAdmitted = (
  origins: Context.Tag.Service<AllowedOrigins>,
  apiKey: string | undefined,
  origin: string,
  host: string | undefined
): Effect.Effect<boolean> => {
  if (admittedAlways(origin, host)) return ADMITTED
  const known = origins.known(apiKey, origin)
  return known === undefined ? origins.admits(apiKey, origin) : known ? ADMITTED : REFUSED
}

/** A call whose token's key does not list the page's origin: refused before it runs. */
export const originNotOfApiKey = (origin: string): ApiError<"PERMISSION_DENIED"> =>
  permissionDenied(`Origin ${origin} is not an allowed domain of this API key.`)

/** Cross-origin answers depend on the request's Origin: every answer on a client path says so, for caches. */
const VARY = "origin"
/** No credentials: the token travels in the Authorization header, never in cookies. */
const ALLOW_HEADERS = "authorization, content-type, traceparent"
/** Chromium's cap; a removed domain still stops at once, since every call is checked again. */
const MAX_AGE_SECONDS = "7200"
/** Rate-limited answers carry it; a browser shows a page only the safelisted headers otherwise. */
const EXPOSE_HEADERS = "retry-after"

/** The answer to a preflight (`OPTIONS` with `Origin`) on a client path, admitted or not. */
export const preflightAnswer = (origin: string, admitted: boolean): AtriumResponse =>
  admitted
    ? {
      status: 204,
      headers: {
        "access-control-allow-origin": origin,
        "access-control-allow-methods": "POST",
        "access-control-allow-headers": ALLOW_HEADERS,
        "access-control-max-age": MAX_AGE_SECONDS,
        vary: VARY
      },
      body: ""
    }
    : {
      status: httpStatusOf.PERMISSION_DENIED,
      headers: { "content-type": "application/json; charset=utf-8", vary: VARY },
      body: errorBody(permissionDenied(`Origin ${origin} is not allowed.`))
    }

/** An answer on a client path, readable by a page at `origin` when `admitted`. */
export const withCors = (response: AtriumResponse, origin: string | undefined, admitted: boolean): AtriumResponse => ({
  ...response,
  headers: origin === undefined || !admitted
    ? { ...response.headers, vary: VARY }
    : { ...response.headers, "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSE_HEADERS, vary: VARY }
})
