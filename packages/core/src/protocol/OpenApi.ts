import * as JSONSchema from "effect/JSONSchema"
import type * as Schema from "effect/Schema"
import { ErrorEnvelope } from "./Envelope.js"
import { type ErrorStatus, httpStatusOf } from "./ErrorStatus.js"
import type { Operation } from "./Operation.js"

/** Errors any operation can answer, beside those its handler declares. */
export const protocolErrors = (operation: Operation): ReadonlyArray<ErrorStatus> =>
  operation.auth === "public" ? ["INVALID_ARGUMENT", "INTERNAL"] : ["INVALID_ARGUMENT", "PERMISSION_DENIED", "INTERNAL"]

export const errorsOf = (operation: Operation): ReadonlyArray<ErrorStatus> =>
  Array.from(new Set([
    ...protocolErrors(operation),
    ...operation.errors,
    ...(operation.strictStatus ? [operation.strictStatus] : []),
    ...(operation.organization ? ["PERMISSION_DENIED" as const] : [])
  ]))

const securityOf = {
  apiKey: [{ apiKey: [], authToken: [] }],
  workspace: [{ workspaceId: [], workspaceAuthToken: [] }],
  public: []
} as const

/** The OpenAPI 3.1 document, derived from the operation table. */
export const openApiDocument = (
  operations: ReadonlyArray<Operation>,
  options: { readonly title?: string; readonly version?: string; readonly headerPrefix: string }
) => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const jsonSchema = (schema: Schema.Schema.Any) =>
    JSONSchema.fromAST(schema.ast, { definitions, definitionPath: "#/components/schemas/", target: "openApi3.1" })
  const errorEnvelope = jsonSchema(ErrorEnvelope)

  const paths: Record<string, unknown> = {}
  for (const operation of operations) {
    const byHttpStatus = new Map<number, Array<ErrorStatus>>()
    for (const status of errorsOf(operation)) {
      byHttpStatus.set(httpStatusOf[status], [...(byHttpStatus.get(httpStatusOf[status]) ?? []), status])
    }
    const responses: Record<string, unknown> = {
      [String(operation.successStatus ?? 200)]: {
        description: "Success",
        content: {
          "application/json": {
            schema: { type: "object", required: ["result"], properties: { result: jsonSchema(operation.output) }, additionalProperties: false }
          }
        }
      }
    }
    for (const [http, statuses] of byHttpStatus) {
      responses[String(http)] = {
        description: statuses.join(", "),
        content: { "application/json": { schema: errorEnvelope } }
      }
    }
    for (const path of operation.paths) {
      paths[path] = {
        post: {
          operationId: operation.paths.length > 1 ? `${operation.name}:${path.split("/")[1]}` : operation.name,
          summary: operation.summary,
          security: securityOf[operation.auth],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { type: "object", required: ["data"], properties: { data: jsonSchema(operation.input) }, additionalProperties: false }
              }
            }
          },
          responses
        }
      }
    }
  }

  const header = (suffix: string) => ({ type: "apiKey", in: "header", name: `${options.headerPrefix}-${suffix}` })
  return {
    openapi: "3.1.0",
    info: {
      title: options.title ?? "Atrium collaboration API",
      version: options.version ?? "0.1.0",
      description: "Every operation is a POST with a JSON body {\"data\": {...}}; answers are {\"result\": ...} or {\"error\": {status, message, code?, details?}}."
    },
    paths,
    components: {
      schemas: definitions,
      securitySchemes: {
        apiKey: header("api-key"),
        authToken: header("auth-token"),
        workspaceId: header("workspace-id"),
        workspaceAuthToken: header("workspace-auth-token")
      }
    }
  }
}
