import { activityOperations } from "./activities/operations.js"
import { agentOperations } from "./agents/operations.js"
import { commentOperations } from "./comments/operations.js"
import { messageOperations } from "./deliveries/messageOperations.js"
import { deliveryOperations } from "./deliveries/operations.js"
import { documentOperations } from "./documents/operations.js"
import { folderOperations } from "./folders/operations.js"
import { jobOperations } from "./jobs/operations.js"
import { judgmentOperations } from "./judgments/operations.js"
import { notificationOperations } from "./notifications/operations.js"
import { organizationOperations } from "./organizations/operations.js"
import { presenceOperations } from "./presence/operations.js"
import { tokenOperations } from "./tokens/operations.js"
import { userOperations } from "./users/operations.js"
import { webhookOperations } from "./webhooks/operations.js"
import { workspaceOperations } from "./workspace/operations.js"
import { workspaceSettingsOperations } from "./workspace/settingsOperations.js"

/** The operation table: every operation Atrium answers, declared once in its domain. */
export const operations = [
  ...workspaceOperations,
  ...workspaceSettingsOperations,
  ...organizationOperations,
  ...documentOperations,
  ...userOperations,
  ...presenceOperations,
  ...notificationOperations,
  ...jobOperations,
  ...folderOperations,
  ...activityOperations,
  ...commentOperations,
  ...webhookOperations,
  ...messageOperations,
  ...deliveryOperations,
  ...tokenOperations,
  ...agentOperations,
  ...judgmentOperations
] as const
