import { errorsOf, type Operation } from "../protocol/Operation.js"

const AUTH = {
  apiKey: "API key (`x-service-api-key` + `x-service-auth-token`)",
  workspace: "workspace (`x-service-workspace-id` + `x-service-workspace-auth-token`)",
  public: "public",
  user: "user token (`Authorization: Bearer <token>`)"
} as const

const AUTH_SHORT = { apiKey: "API key", workspace: "workspace", public: "public", user: "user token" } as const

/** The operation reference (`docs/reference.md`), derived from the operation table. */
export const referenceMarkdown = (operations: ReadonlyArray<Operation>): string => {
  const rows = operations.map((op) =>
    `| ${op.paths.map((p) => `\`${p}\``).join("<br>")} | ${AUTH_SHORT[op.auth]} | ${op.summary.replace(/\|/g, "\\|")} | ${
      errorsOf(op).join(", ")
    } |`
  )
  return [
    "# Operation reference",
    "",
    "Generated from the operation table (`packages/core/src/operations.ts`) by `pnpm docs`; a test keeps it current.",
    "Every operation is a `POST` with `Content-Type: application/json` and a body `{\"data\": {...}}`.",
    "The full request and response schemas are in [`openapi.json`](openapi.json) (also served at `GET /openapi.json`).",
    "",
    "Authentication modes:",
    ...Object.entries(AUTH).map(([, text]) => `- ${text}`),
    "",
    "Errors listed per operation include the protocol errors every operation can answer (see [protocol.md](protocol.md)).",
    "",
    `${operations.length} operations:`,
    "",
    "| Path | Auth | What it does | Errors |",
    "|---|---|---|---|",
    ...rows,
    ""
  ].join("\n")
}
