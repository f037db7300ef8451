import { accessDomain } from "./access/domain.js"
import { activitiesDomain } from "./activities/domain.js"
import { agentsDomain } from "./agents/domain.js"
import { commentsDomain } from "./comments/domain.js"
import { deliveriesDomain } from "./deliveries/domain.js"
import { documentsDomain } from "./documents/domain.js"
import { foldersDomain } from "./folders/domain.js"
import { jobsDomain } from "./jobs/domain.js"
import { judgmentsDomain } from "./judgments/domain.js"
import { emailsDomain } from "./emails/domain.js"
import { livestateDomain } from "./livestate/domain.js"
import { notificationsDomain } from "./notifications/domain.js"
import { organizationsDomain } from "./organizations/domain.js"
import { presenceDomain } from "./presence/domain.js"
import { realtimeDomain } from "./realtime/domain.js"
import { tokensDomain } from "./tokens/domain.js"
import { usersDomain } from "./users/domain.js"
import { webhooksDomain } from "./webhooks/domain.js"
import { workspaceDomain } from "./workspace/domain.js"

/**
 * Every domain, once: the services (Services.ts), the storage (Storage.ts, SqlStorage.ts), the
 * operation table (operations.ts), the jobs' tables and the OpenAPI tags derive from this list.
 * Its order is the reference's (operations and tags in this order) and the order in which events'
 * listeners are told; the isolation suite seeds each domain in it, after those before it. A new
 * domain goes last: the table-wide suites draw each operation's samples from its place in the list.
 */
export const domains = [
  workspaceDomain,
  organizationsDomain,
  documentsDomain,
  usersDomain,
  presenceDomain,
  notificationsDomain,
  jobsDomain,
  foldersDomain,
  activitiesDomain,
  commentsDomain,
  webhooksDomain,
  deliveriesDomain,
  tokensDomain,
  agentsDomain,
  judgmentsDomain,
  accessDomain,
  realtimeDomain,
  livestateDomain,
  emailsDomain
] as const

export type Domain = (typeof domains)[number]
export type DomainName = Domain["name"]
