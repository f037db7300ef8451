import { documentOperations } from "./documents/operations.js"
import { organizationOperations } from "./organizations/operations.js"
import { workspaceOperations } from "./workspace/operations.js"

/** The operation table: every operation Atrium answers, declared once in its domain. */
export const operations = [
  ...workspaceOperations,
  ...organizationOperations,
  ...documentOperations
] as const
