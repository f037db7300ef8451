/** Atrium answers → Lambda results, each in the shape its event kind expects back. */
import type { AtriumResponse } from "@atrium/core"
import type { ALBEvent, ALBResult, APIGatewayProxyEventV2, APIGatewayProxyResult, APIGatewayProxyStructuredResultV2 } from "aws-lambda"
import { STATUS_CODES } from "node:http"
import type { EventKind, LambdaEvent } from "./events.js"

/** The result type that answers an event type. */
export type LambdaResult<E extends LambdaEvent> = E extends APIGatewayProxyEventV2 ? APIGatewayProxyStructuredResultV2
  : E extends ALBEvent ? ALBResult
  : APIGatewayProxyResult

const multiValued = (headers: Readonly<Record<string, string>>): Record<string, Array<string>> => {
  const multi: Record<string, Array<string>> = {}
  for (const name in headers) multi[name] = [headers[name]!]
  return multi
}

/**
 * Atrium's answers are JSON text with single-valued headers and no cookies, so every result is
 * `isBase64Encoded: false` with plain `headers`; only an ALB whose target group has multi-value
 * headers on (its events then carry `multiValueHeaders`) must be answered in `multiValueHeaders`.
 */
export const resultOf = (kind: EventKind, event: LambdaEvent, response: AtriumResponse): APIGatewayProxyResult | APIGatewayProxyStructuredResultV2 | ALBResult => {
  const headers = { ...response.headers }
  if (kind !== "alb") return { statusCode: response.status, headers, body: response.body, isBase64Encoded: false }
  const statusDescription = `${response.status} ${STATUS_CODES[response.status] ?? ""}`.trimEnd()
  return (event as ALBEvent).multiValueHeaders !== undefined
    ? { statusCode: response.status, statusDescription, multiValueHeaders: multiValued(headers), body: response.body, isBase64Encoded: false }
    : { statusCode: response.status, statusDescription, headers, body: response.body, isBase64Encoded: false }
}
