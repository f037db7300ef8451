/**
 * The one name of each path, for the OpenAPI document and generated clients: the path after its
 * version in camelCase, `V1` appended for the older of two versions.
 * `/v2/workspace/email/send-login-link` → `workspaceEmailSendLoginLink`,
 * `/v1/organizations/documents/add` → `organizationsDocumentsAddV1`.
 */
export const operationIdOf = (path: string): string => {
  const [, version, ...rest] = path.split("/")
  const words = rest.flatMap((segment) => segment.split(/[-_]/)).filter((word) => word.length > 0)
  const name = words.map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join("")
  return version === "v1" ? `${name}V1` : name
}
