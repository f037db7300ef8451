import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import { isUtf8 } from "node:buffer"
import type { AtriumOptions } from "../Config.js"
import { Access } from "./Access.js"
import { ApiError, internal, invalidArgument, notFound, permissionDenied, unauthenticated } from "./ApiError.js"
import { AllowedOrigins, isClientPath, originAdmitted, preflightAnswer, withCors } from "./Cors.js"
import { credentialHeaders } from "./CredentialHeaders.js"
import { errorBody } from "./Envelope.js"
import { httpStatusOf } from "./ErrorStatus.js"
import { operationIdOf } from "./OperationIds.js"
import { TraceSampler, TracingEnabled } from "../ports/TracingEnabled.js"
import { withOperationSpan } from "./Tracing.js"
import { jsonProblem } from "./JsonLimits.js"
import type { Accepted, ApiKeyCaller, AuthMode, CallerOf, Operation, StrictStatus, UserCaller } from "./Operation.js"
import { invalidToken } from "../tokens/TokenVerification.js"
import { makeUserAuthentication } from "./UserCaller.js"
import { UserTokens } from "./UserTokens.js"

/** A request as every adapter hands it to the core: header names in lower case, path without the mount prefix. */
export interface AtriumRequest {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  /** The raw body. An adapter may stop reading past `maxBodyBytes`; anything longer is refused here. */
  readonly body: string | Uint8Array | undefined
  /** Client address, for the rate limits of public operations. */
  readonly ip?: string | undefined
}

export interface AtriumResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * A plain GET document served beside the operations (`/openapi.json`, `/.well-known/jwks.json`,
 * `/healthz`, the reference page): JSON unless it names its own headers.
 */
export type DocumentHandler<R> = Effect.Effect<
  { readonly status: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> },
  never,
  R
>

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" } as const

const respond = (status: number, body: string): AtriumResponse => ({ status, headers: JSON_HEADERS, body })

/** An error as an answer: the envelope, its HTTP status, and `Retry-After` when it says when. */
export const errorResponse = (error: ApiError): AtriumResponse =>
  error.retryAfterSeconds === undefined
    ? respond(httpStatusOf[error.status], errorBody(error))
    : { status: httpStatusOf[error.status], headers: { ...JSON_HEADERS, "retry-after": String(error.retryAfterSeconds) }, body: errorBody(error) }

export const header = (request: Pick<AtriumRequest, "headers">, name: string): string | undefined => {
  const value = request.headers[name]
  return typeof value === "string" ? value : value?.[0]
}

const isJsonContentType = (value: string | undefined) =>
  value === "application/json" || // what nearly every client sends: no parsing
  (value !== undefined && value.split(";", 1)[0]!.trim().toLowerCase() === "application/json")

const byteLength = (body: string | Uint8Array) => typeof body === "string" ? Buffer.byteLength(body) : body.byteLength

/**
 * The body as text; undefined for bytes that are not UTF-8, which decoding would turn into U+FFFD
 * unseen (two different ids would become one). A string was decoded by whoever made it.
 */
const toText = (body: string | Uint8Array): string | undefined => {
  if (typeof body === "string") return body
  // What node adapters hand over is a Buffer already: no view to make.
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  return isUtf8(bytes) ? bytes.toString("utf8") : undefined
}

/**
 * The body must be a JSON object whose only key is `data`, itself an object
 * (spec convention 2; docs/decisions.md, "Product rulings"). Returns the `data` or the error.
 */
const unwrap = (request: AtriumRequest, maxBodyBytes: number): Either.Either<unknown, ApiError> => {
  if (!isJsonContentType(header(request, "content-type"))) {
    return Either.left(invalidArgument("Content-Type must be application/json."))
  }
  const size = request.body === undefined ? 0 : byteLength(request.body)
  if (size === 0) {
    return Either.left(invalidArgument("Request body is empty: send a JSON object {\"data\": {...}}."))
  }
  if (size > maxBodyBytes) {
    return Either.left(invalidArgument(`Request body is larger than ${maxBodyBytes} bytes.`))
  }
  let body: unknown
  const text = toText(request.body!)
  if (text === undefined) return Either.left(invalidArgument("Request body is not valid UTF-8."))
  try {
    body = JSON.parse(text)
  } catch {
    return Either.left(invalidArgument("Request body is not valid JSON."))
  }
  const problem = jsonProblem(text, body)
  if (problem !== undefined) return Either.left(problem)
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return Either.left(invalidArgument("Request body must be a JSON object {\"data\": {...}}."))
  }
  for (const key in body) {
    if (key !== "data") {
      return Either.left(invalidArgument(`Unexpected top-level key "${key}": parameters belong inside "data".`))
    }
  }
  if (!("data" in body)) {
    return Either.left(invalidArgument("Request body must wrap its parameters in \"data\"."))
  }
  const data = (body as { data: unknown }).data
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return Either.left(invalidArgument("\"data\" must be a JSON object."))
  }
  return Either.right(data)
}

export interface DispatcherOptions<R> {
  readonly operations: ReadonlyArray<Operation<R>>
  readonly documents: Readonly<Record<string, DocumentHandler<R>>>
  readonly options: AtriumOptions
  readonly runtime: Runtime.Runtime<R | Access | UserTokens | AllowedOrigins>
}

/** `Authorization: Bearer <token>`: the token, or undefined for any other header. */
const bearerToken = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined || authorization.length < 8 || authorization.slice(0, 7).toLowerCase() !== "bearer ") return undefined
  const token = authorization.slice(7).trim()
  return token === "" ? undefined : token
}

/**
 * The request path: route, protocol checks, authentication, the organization
 * gate, decoding, then the operation's handler, run on a runtime built once.
 * A lean table lookup instead of a general router: see docs/architecture.md
 * for the measurements behind it.
 */
export const makeDispatcher = <R>({ documents, operations, options, runtime }: DispatcherOptions<R>) => {
  const names = credentialHeaders(options.headerPrefix)
  const runFork = Runtime.runFork(runtime)
  // Looked up once: every request needs it.
  const access = Context.get(runtime.context, Access)
  const limitApiKey = access.limitApiKey
  const origins = Context.get(runtime.context, AllowedOrigins)
  const apiKeyOnClientPath = unauthenticated(
    `API keys are not accepted on client paths: send the user's token as "Authorization: Bearer <token>".`
  )
  const bearerOnServerPath = permissionDenied(
    `A user's token is not accepted on server paths: send the API key headers (${names.apiKey}, ${names.authToken}).`
  )
  const noToken = invalidToken({ reason: "no_bearer_token" })
  const authenticateUser = makeUserAuthentication(runtime)

  /** The user a client call comes from (UserCaller.ts): its bearer token, no API-key headers. */
  const userCaller = (request: AtriumRequest): Effect.Effect<UserCaller, ApiError> => {
    if (header(request, names.apiKey) !== undefined || header(request, names.authToken) !== undefined) return Effect.fail(apiKeyOnClientPath)
    const token = bearerToken(header(request, "authorization"))
    if (token === undefined) return Effect.fail(noToken)
    return authenticateUser(token, { origin: header(request, "origin"), host: header(request, "host"), ip: request.ip })
  }

  /**
   * A call that touches an organization's data is refused while that organization is disabled; with
   * a per-key rate limit every authenticated call of the key (its users' too) is counted first.
   */
  const gated = <A extends "apiKey" | "user">(accept: (data: unknown) => Either.Either<Accepted<A>, ApiError>) => {
    const answer = (data: unknown, caller: CallerOf<A>): Effect.Effect<unknown, ApiError> => {
      const accepted = accept(data)
      if (Either.isLeft(accepted)) return Effect.fail(accepted.left)
      const { organizationId, run } = accepted.right
      const handled = run(caller)
      return organizationId === undefined || access.knownEnabled(caller.apiKey, organizationId)
        ? handled
        : Effect.zipRight(access.ensureOrganizationEnabled(caller.apiKey, organizationId), handled)
    }
    return limitApiKey === undefined
      ? answer
      : (data: unknown, caller: CallerOf<A>) => Effect.zipRight(limitApiKey(caller.apiKey), answer(data, caller))
  }
  // Decided once: an untraced request path has no span to open or skip.
  const tracing = Context.get(runtime.context, TracingEnabled)
  const sampled = Context.get(runtime.context, TraceSampler)

  const routes = new Map<string, (request: AtriumRequest, data: unknown) => Effect.Effect<unknown, ApiError, R>>()
  const successStatus = new Map<string, number>()
  const strictStatus = new Map<string, StrictStatus>()
  /** Decodes `data` (after authentication: a stranger learns nothing of the schema) and answers it for `caller`. */
  const answerFor = <A extends AuthMode>(
    accept: (data: unknown) => Either.Either<Accepted<A>, ApiError>,
    data: unknown,
    caller: CallerOf<A>
  ): Effect.Effect<unknown, ApiError> => {
    const accepted = accept(data)
    return Either.isLeft(accepted) ? Effect.fail(accepted.left) : accepted.right.run(caller)
  }
  /** How a request to `operation` is authenticated, then answered. */
  const routeOf = (operation: Operation<R>): (request: AtriumRequest, data: unknown) => Effect.Effect<unknown, ApiError, R> => {
    switch (operation.auth) {
      case "public": {
        const accept = operation.bind(runtime.context)
        return (request, data) => answerFor(accept, data, { mode: "public", ip: request.ip ?? "" })
      }
      case "workspace": {
        const accept = operation.bind(runtime.context)
        return (request, data) =>
          Effect.flatMap(
            access.workspaceCaller(header(request, names.workspaceId), header(request, names.workspaceAuthToken), request.ip ?? ""),
            (caller) => answerFor(accept, data, caller)
          )
      }
      case "apiKey": {
        const answerCounted = gated(operation.bind(runtime.context))
        return (request, data) => {
          const ip = request.ip ?? ""
          const apiKey = header(request, names.apiKey)
          const authToken = header(request, names.authToken)
          const known = access.knownApiKeyCaller(apiKey, authToken, ip)
          if (known !== undefined) return answerCounted(data, known)
          // A user's token where the API key belongs: say so rather than "Invalid API key.".
          if (apiKey === undefined && authToken === undefined && bearerToken(header(request, "authorization")) !== undefined) {
            return Effect.fail(bearerOnServerPath)
          }
          return Effect.flatMap(access.apiKeyCaller(apiKey, authToken, ip), (caller: ApiKeyCaller) => answerCounted(data, caller))
        }
      }
      case "user": {
        const answerCounted = gated(operation.bind(runtime.context))
        return (request, data) => Effect.flatMap(userCaller(request), (caller) => answerCounted(data, caller))
      }
    }
  }

  for (const operation of operations) {
    const route = routeOf(operation)
    for (const path of operation.paths) {
      if (routes.has(path)) throw new Error(`Two operations claim ${path}`)
      // A success on a client path is answered to the page because the token's key admitted its origin.
      if (isClientPath(path) !== (operation.auth === "user")) throw new Error(`${path}: client paths, and only they, take a user's token`)
      const name = operationIdOf(path)
      routes.set(path, tracing ? (request, data) => withOperationSpan(route(request, data), name, path, header(request, "traceparent"), sampled) : route)
      successStatus.set(path, operation.successStatus ?? 200)
      if (options.strictStatuses && operation.strictStatus) strictStatus.set(path, operation.strictStatus)
    }
  }

  /**
   * Runs an operation. A fiber starts at once and often finishes before runFork returns (every
   * SQLite read does): then its exit is read at once, with no promise or observer to allocate.
   */
  const exitOf = <A, E>(effect: Effect.Effect<A, E, R | Access | UserTokens | AllowedOrigins>): Exit.Exit<A, E> | Promise<Exit.Exit<A, E>> => {
    const fiber = runFork(effect)
    return fiber.unsafePoll() ?? new Promise((resolve) => fiber.addObserver(resolve))
  }

  const logDefect = (path: string, cause: Cause.Cause<unknown>) =>
    runFork(Effect.logError(`${path}: unexpected failure`, cause))

  const serveDocument = async (path: string, document: DocumentHandler<R>): Promise<AtriumResponse> => {
    const exit = await exitOf(document)
    if (Exit.isSuccess(exit)) {
      const { body, headers, status } = exit.value
      return headers === undefined ? respond(status, body) : { status, headers: { ...headers, "x-content-type-options": "nosniff" }, body }
    }
    logDefect(path, exit.cause)
    return errorResponse(internal("Internal error."))
  }

  const answerPath = async (request: AtriumRequest, path: string): Promise<AtriumResponse> => {
    const route = routes.get(path)
    if (route === undefined) {
      const document = documents[path]
      if (document !== undefined && (request.method === "GET" || request.method === "HEAD")) {
        return serveDocument(path, document)
      }
      return errorResponse(notFound(`No operation at ${path}.`))
    }
    if (request.method !== "POST") {
      return errorResponse(invalidArgument(`Method ${request.method} is not allowed: every operation is a POST.`))
    }
    const data = unwrap(request, options.maxBodyBytes)
    if (Either.isLeft(data)) return errorResponse(data.left)

    const exit = await exitOf(route(request, data.right))
    if (Exit.isSuccess(exit)) {
      try {
        return respond(successStatus.get(path)!, JSON.stringify({ result: exit.value }))
      } catch (error) {
        logDefect(path, Cause.die(error))
        return errorResponse(internal("Internal error."))
      }
    }
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure) && failure.value instanceof ApiError) {
      const strict = failure.value.status === "INTERNAL" ? strictStatus.get(path) : undefined
      const { details, message } = failure.value
      return errorResponse(strict === undefined ? failure.value : new ApiError(details === undefined ? { status: strict, message } : { status: strict, message, details }))
    }
    logDefect(path, exit.cause)
    return errorResponse(internal("Internal error."))
  }

  /**
   * A client path's answer (spec client-api.md, "Conventions" 6; docs/decisions.md, "Client API"):
   * a preflight is answered by whether any key's domains admit the origin, a call by whether its
   * token's key's do (refused before it runs otherwise, in `userCaller`); an error, whose token may
   * name no key, is readable by a page the preflight would admit, so the SDK sees "Token expired.".
   */
  const answerClient = async (request: AtriumRequest, path: string): Promise<AtriumResponse> => {
    const origin = header(request, "origin")
    if (origin === undefined) return withCors(await answerPath(request, path), undefined, false)
    const host = header(request, "host")
    if (request.method === "OPTIONS") {
      const exit = await exitOf(originAdmitted(origins, undefined, origin, host))
      if (Exit.isSuccess(exit)) return preflightAnswer(origin, exit.value)
      logDefect(path, exit.cause)
      return errorResponse(internal("Internal error."))
    }
    const response = await answerPath(request, path)
    if (response.status < 300) return withCors(response, origin, true)
    const exit = await exitOf(originAdmitted(origins, undefined, origin, host))
    if (Exit.isFailure(exit)) logDefect(path, exit.cause)
    return withCors(response, origin, Exit.isSuccess(exit) && exit.value)
  }

  const answer = (request: AtriumRequest): Promise<AtriumResponse> => {
    const query = request.path.indexOf("?")
    const path = query === -1 ? request.path : request.path.slice(0, query)
    return isClientPath(path) ? answerClient(request, path) : answerPath(request, path)
  }

  // A defect thrown outside an operation's Effect (e.g. while decoding) is still an answer, never a rejection an adapter would crash on.
  return (request: AtriumRequest): Promise<AtriumResponse> =>
    answer(request).catch((error: unknown) => {
      logDefect(request.path, Cause.die(error))
      return errorResponse(internal("Internal error."))
    })
}
