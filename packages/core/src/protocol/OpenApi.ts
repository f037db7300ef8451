import * as JSONSchema from "effect/JSONSchema"
import type * as Schema from "effect/Schema"
import { domains } from "../domains.js"
import { credentialHeaders } from "./CredentialHeaders.js"
import { ErrorEnvelope } from "./Envelope.js"
import { type ErrorStatus, httpStatusOf } from "./ErrorStatus.js"
import { listCaps } from "./ListCaps.js"
import { errorsOf, type Operation } from "./Operation.js"
import { operationIdOf } from "./OperationIds.js"

/**
 * One recorded call of a path: the body sent and the answer received. `pnpm docs` records one per
 * path (packages/core/src/codegen/examples.json, `examples` from `@atrium/core/codegen`).
 */
export interface OperationExample {
  readonly request: { readonly data: unknown }
  readonly response: unknown
}

const securityOf = {
  apiKey: [{ apiKey: [], authToken: [] }],
  workspace: [{ workspaceId: [], workspaceAuthToken: [] }],
  public: [],
  user: [{ userToken: [] }]
} as const

/**
 * Effect writes each built-in filter's annotations into the JSON Schema (`title: "maxLength(1000)"`,
 * `description: "a string at most 1000 character(s) long"`) beside the keyword that already says
 * it (`maxLength: 1000`). They only repeat the keyword, so they go; descriptions we wrote stay.
 * So does the `$id` it gives `unknown` and `{}` (`/schemas/unknown`): the same `$id` in many
 * places makes the document's references ambiguous to validators.
 */
const FILTER_DESCRIPTION = /^(a|an) (string|number|integer|array|non-negative|positive|negative|finite)\b|^\{/
const withoutEffectAnnotations = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutEffectAnnotations)
  if (value === null || typeof value !== "object") return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    if ((key === "title" || key === "$id") && typeof inner === "string") continue
    if (key === "description" && typeof inner === "string" && FILTER_DESCRIPTION.test(inner)) continue
    out[key] = withoutEffectAnnotations(inner)
  }
  return out
}

/** The tag of a path: its first segment after the version (`workspace`, `users`, `commentannotations`, …). */
const tagOf = (path: string) => path.split("/")[2]!

/** Every tag's description, from the domains that introduce them (each domain's `tags`, domains.ts). */
const tagDescriptions: ReadonlyMap<string, string> = new Map(
  domains.flatMap((domain) => "tags" in domain ? domain.tags.map((tag) => [tag.name, tag.description] as const) : [])
)

/** A path's tag, with its description: every tag is one a domain introduces. */
const describedTag = (name: string) => {
  const description = tagDescriptions.get(name)
  if (description === undefined) throw new Error(`No domain introduces the OpenAPI tag "${name}" (its descriptor's tags)`)
  return { name, description }
}

/**
 * The OpenAPI 3.1 document, derived from the operation table. It lives on the request path (the
 * dispatcher serves it at `GET /openapi.json`); the recorded examples are data it is given, not
 * code it imports, so a handler without them ships none (`examples` from `@atrium/core/codegen`).
 */
export const openApiDocument = (
  operations: ReadonlyArray<Operation>,
  options: {
    readonly title?: string
    readonly version?: string
    readonly headerPrefix: string
    /** A recorded request and answer by path, shown as each path's examples. */
    readonly examples?: Readonly<Record<string, OperationExample>>
  }
) => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const jsonSchema = (schema: Schema.Schema.Any) =>
    withoutEffectAnnotations(JSONSchema.fromAST(schema.ast, { definitions, definitionPath: "#/components/schemas/", target: "openApi3.1" }))
  const errorEnvelope = jsonSchema(ErrorEnvelope)

  const paths: Record<string, unknown> = {}
  for (const operation of operations) {
    const byHttpStatus = new Map<number, Array<ErrorStatus>>()
    for (const status of errorsOf(operation)) {
      byHttpStatus.set(httpStatusOf[status], [...(byHttpStatus.get(httpStatusOf[status]) ?? []), status])
    }
    const requestSchema = { type: "object", required: ["data"], properties: { data: jsonSchema(operation.input) }, additionalProperties: false }
    const resultSchema = { type: "object", required: ["result"], properties: { result: jsonSchema(operation.output) }, additionalProperties: false }
    const errorResponses: Record<string, unknown> = {}
    for (const [http, statuses] of byHttpStatus) {
      errorResponses[String(http)] = {
        description: statuses.join(", "),
        content: { "application/json": { schema: errorEnvelope } }
      }
    }
    // Caps on several lists together have no JSON Schema keyword: the description says them.
    const together = listCaps(operation.input).flatMap((cap) => "counted" in cap ? [`At most ${cap.max} ${cap.counted} per call.`] : [])
    const description = [operation.summary, ...together].join(" ")
    for (const path of operation.paths) {
      const example = options.examples?.[path]
      paths[path] = {
        post: {
          operationId: operationIdOf(path),
          tags: [tagOf(path)],
          // The path is the short name a reader looks for in the menu; what it does follows.
          summary: path,
          description,
          security: securityOf[operation.auth],
          requestBody: {
            required: true,
            content: { "application/json": { schema: requestSchema, ...(example ? { example: example.request } : {}) } }
          },
          responses: {
            [String(operation.successStatus ?? 200)]: {
              description: "Success",
              content: { "application/json": { schema: resultSchema, ...(example ? { example: example.response } : {}) } }
            },
            ...errorResponses
          }
        }
      }
    }
  }

  return {
    openapi: "3.1.0",
    info: {
      title: options.title ?? "Atrium collaboration API",
      version: options.version ?? "0.1.0",
      description: "Every operation is a POST with a JSON body {\"data\": {...}}; answers are {\"result\": ...} or {\"error\": {status, message, code?, details?}}." +
        (options.examples ? " The examples are one recorded walk through every operation." : ""),
      license: { name: "MIT", identifier: "MIT" }
    },
    servers: [{ url: "/", description: "The server that serves this document" }],
    tags: [...new Set(Object.keys(paths).map(tagOf))].map(describedTag),
    paths,
    components: {
      schemas: withoutEffectAnnotations(definitions) as Record<string, JSONSchema.JsonSchema7>,
      // One scheme per credential header, named as in `security` above.
      securitySchemes: {
        ...Object.fromEntries(
          Object.entries(credentialHeaders(options.headerPrefix)).map(([scheme, name]) => [scheme, { type: "apiKey", in: "header", name }])
        ),
        // The client API's: the token generate_token issued, as `Authorization: Bearer`.
        userToken: { type: "http", scheme: "bearer", bearerFormat: "JWT" }
      }
    }
  }
}
