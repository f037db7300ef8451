import * as Context from "effect/Context"
import * as Exit from "effect/Exit"
import * as Cause from "effect/Cause"
import * as Runtime from "effect/Runtime"
import type { Access } from "../protocol/Access.js"
import { type ApiError, internal, notFound } from "../protocol/ApiError.js"
import type { AllowedOrigins } from "../protocol/Cors.js"
import { type AtriumRequest, type AtriumResponse, errorResponse, header } from "../protocol/Dispatcher.js"
import { makeUserAuthentication } from "../protocol/UserCaller.js"
import type { UserTokens } from "../protocol/UserTokens.js"
import { invalidToken } from "../tokens/TokenVerification.js"
import { RealtimeHub, type RealtimeConnection, type RealtimeSocket } from "./RealtimeHub.js"

/** Where the WebSocket is served, under the mount path (spec client-api.md, "Realtime"). */
export const REALTIME_PATH = "/v2/client/realtime"

/** An upgrade request as a transport hands it over: the path under the mount prefix with its query, the headers, the client. */
export type RealtimeUpgrade = Pick<AtriumRequest, "path" | "headers" | "ip">

/** The core's answer to an upgrade: go ahead and connect the socket, or refuse with this HTTP answer. */
export type RealtimeAnswer =
  | { readonly accepted: true; readonly connect: (socket: RealtimeSocket) => RealtimeConnection }
  | { readonly accepted: false; readonly response: AtriumResponse }

/**
 * Accepts a WebSocket upgrade (`GET /v2/client/realtime?token=…`) as the client API accepts a
 * call: the token verified, its key still there, a page's origin admitted; else the same refusal
 * as an HTTP answer, before the upgrade (401 "Invalid token.", "Token expired.", 403 the origin).
 */
export const makeRealtimeAccept = (runtime: Runtime.Runtime<RealtimeHub | Access | UserTokens | AllowedOrigins>) => {
  const hub = Context.get(runtime.context, RealtimeHub)
  const authenticate = makeUserAuthentication(runtime)
  const noToken = invalidToken({ reason: "no_token" })
  const runPromiseExit = Runtime.runPromiseExit(runtime)
  const refused = (error: ApiError): RealtimeAnswer => ({ accepted: false, response: errorResponse(error) })
  return async (request: RealtimeUpgrade): Promise<RealtimeAnswer> => {
    const query = request.path.indexOf("?")
    const path = query < 0 ? request.path : request.path.slice(0, query)
    if (path !== REALTIME_PATH) return refused(notFound(`No WebSocket at ${path}: realtime is served at ${REALTIME_PATH}.`))
    const token = new URLSearchParams(query < 0 ? "" : request.path.slice(query + 1)).get("token")
    if (token === null || token === "") return refused(noToken)
    const exit = await runPromiseExit(authenticate(token, { origin: header(request, "origin"), host: header(request, "host"), ip: request.ip }))
    if (Exit.isSuccess(exit)) {
      const caller = exit.value
      return { accepted: true, connect: (socket) => hub.connect(caller, socket) }
    }
    const failure = Cause.failureOption(exit.cause)
    return failure._tag === "Some" ? refused(failure.value) : refused(internal("Internal error."))
  }
}

