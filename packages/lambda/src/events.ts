/**
 * Lambda events → Atrium requests. Three event kinds reach a function over HTTP: API Gateway
 * payload v1 (REST APIs, and HTTP APIs set to payload 1.0), payload v2 (HTTP APIs, Function URLs)
 * and ALB. What each one sends is written in docs/adapters/lambda.md.
 */
import type { AtriumRequest } from "@atrium/core"
import type { ALBEvent, APIGatewayProxyEvent, APIGatewayProxyEventV2 } from "aws-lambda"

export type LambdaEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2 | ALBEvent

export type EventKind = "v1" | "v2" | "alb"

/** Payload v2 names its version; ALB events carry `requestContext.elb`; the rest is payload v1. */
export const kindOf = (event: LambdaEvent): EventKind =>
  (event as { version?: string }).version === "2.0" ? "v2" : (event.requestContext as { elb?: unknown } | undefined)?.elb !== undefined ? "alb" : "v1"

type SingleHeaders = Readonly<Record<string, string | undefined>> | null | undefined
type MultiHeaders = Readonly<Record<string, ReadonlyArray<string> | undefined>> | null | undefined

/**
 * Header names lower-cased. `multiValueHeaders`, when sent, hold every value and win over `headers`
 * (which keep only the last one); repeated values are joined as node:http joins them, so every
 * adapter hands the core the same headers.
 */
const headersOf = (single: SingleHeaders, multi: MultiHeaders): Record<string, string> => {
  const headers: Record<string, string> = {}
  if (single) {
    for (const name in single) {
      const value = single[name]
      if (value !== undefined) headers[name.toLowerCase()] = value
    }
  }
  if (multi) {
    for (const name in multi) {
      const values = multi[name]
      if (values === undefined || values.length === 0) continue
      const lower = name.toLowerCase()
      headers[lower] = values.join(lower === "cookie" ? "; " : ", ")
    }
  }
  return headers
}

const bodyOf = (body: string | null | undefined, isBase64Encoded: boolean): string | Uint8Array | undefined =>
  body === undefined || body === null || body === "" ? undefined : isBase64Encoded ? Buffer.from(body, "base64") : body

/**
 * HTTP APIs put a named stage in front of the path (`/prod/v2/...`), through a custom domain too;
 * the `$default` stage adds nothing. REST APIs never put the stage in `event.path`.
 */
const withoutStage = (path: string, stage: string | undefined): string => {
  if (stage === undefined || stage === "" || stage === "$default") return path
  const prefix = "/" + stage
  if (path === prefix) return "/"
  return path.startsWith(prefix + "/") ? path.slice(prefix.length) : path
}

/**
 * The ALB appends the address it received the connection from to `x-forwarded-for`; entries before
 * it come from the client and can be forged, so the last one is the caller (rate limits key on it).
 */
const lastForwardedFor = (value: string | undefined): string | undefined => {
  if (value === undefined) return undefined
  const last = value.slice(value.lastIndexOf(",") + 1).trim()
  return last === "" ? undefined : last
}

/** The request as the core reads it; `path` still carries the mount prefix, if any. */
export const requestOf = (event: LambdaEvent, kind: EventKind): AtriumRequest => {
  switch (kind) {
    case "v2": {
      const v2 = event as APIGatewayProxyEventV2
      const headers = headersOf(v2.headers, undefined)
      // Payload v2 moves the Cookie header into `cookies`.
      if (v2.cookies !== undefined && v2.cookies.length > 0) headers.cookie = v2.cookies.join("; ")
      return {
        method: v2.requestContext.http.method,
        path: withoutStage(v2.rawPath || "/", v2.requestContext.stage),
        headers,
        body: bodyOf(v2.body, v2.isBase64Encoded),
        ip: v2.requestContext.http.sourceIp
      }
    }
    case "v1": {
      const v1 = event as APIGatewayProxyEvent
      // Only HTTP APIs send payload 1.0 with a `version`, and only they put the stage in `path`.
      const fromHttpApi = (event as { version?: string }).version === "1.0"
      return {
        method: v1.httpMethod,
        path: fromHttpApi ? withoutStage(v1.path || "/", v1.requestContext?.stage) : v1.path || "/",
        headers: headersOf(v1.headers, v1.multiValueHeaders),
        body: bodyOf(v1.body, v1.isBase64Encoded),
        ip: v1.requestContext?.identity?.sourceIp
      }
    }
    case "alb": {
      const alb = event as ALBEvent
      const headers = headersOf(alb.headers, alb.multiValueHeaders)
      return {
        method: alb.httpMethod,
        path: alb.path || "/",
        headers,
        body: bodyOf(alb.body, alb.isBase64Encoded),
        ip: lastForwardedFor(headers["x-forwarded-for"])
      }
    }
  }
}
