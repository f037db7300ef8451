/**
 * @atrium/lambda: Atrium as an AWS Lambda handler for API Gateway REST (payload v1), HTTP API and
 * Function URL (payload v2) and ALB events. Adapter authors: this file uses only `createAtrium`'s
 * `AtriumHandler` and the `AtriumRequest`/`AtriumResponse` shapes. Details: docs/adapters/lambda.md.
 */
import { type AtriumHandler, type AtriumResponse, normalizeBasePath, notMounted, pathUnder } from "@atrium/core"
import { kindOf, type LambdaEvent, requestOf } from "./events.js"
import { type LambdaResult, resultOf } from "./results.js"

export type { EventKind, LambdaEvent } from "./events.js"
export type { LambdaResult } from "./results.js"

export interface LambdaHandlerOptions {
  /**
   * Path prefix the API is mounted under, e.g. `/collab` (a REST API custom domain's base path
   * mapping, or a route such as `ANY /collab/{proxy+}`). Requests outside it get NOT_FOUND.
   * An HTTP API's stage is removed without it.
   */
  readonly basePath?: string
}

/** The function Lambda calls: each event kind gets its own result shape back. */
export type LambdaHandler = <E extends LambdaEvent>(event: E, context?: unknown) => Promise<LambdaResult<E>>

/**
 * A Lambda handler answering every Atrium operation under `basePath`. Pass the `AtriumHandler`, or
 * a function that builds it: it is then built on the first invocation. Either way it is built once
 * per container (module scope outlives invocations) and every invocation reuses its runtime and
 * storage; never create it inside the handler.
 */
export const toLambdaHandler = (atrium: AtriumHandler | (() => AtriumHandler), options: LambdaHandlerOptions = {}): LambdaHandler => {
  let built = typeof atrium === "function" ? undefined : atrium
  const base = normalizeBasePath(options.basePath)
  return async <E extends LambdaEvent>(event: E): Promise<LambdaResult<E>> => {
    const kind = kindOf(event)
    const request = requestOf(event, kind)
    let response: AtriumResponse
    const path = pathUnder(base, request.path)
    if (path === undefined) {
      response = notMounted(request.path)
    } else {
      built ??= (atrium as () => AtriumHandler)()
      response = await built.handle(base === "" ? request : { ...request, path })
    }
    return resultOf(kind, event, response) as LambdaResult<E>
  }
}
