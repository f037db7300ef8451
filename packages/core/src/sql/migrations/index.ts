import * as Migrator from "@effect/sql/Migrator"
import core from "./0001_core.js"
import workspaceSettings from "./0002_workspace_settings.js"
import people from "./0003_people.js"
import activities from "./0004_activities.js"
import webhooks from "./0005_webhooks.js"
import jobs from "./0006_jobs.js"
import tokensAgentsMemory from "./0007_tokens_agents_memory.js"
import webhookDeliveries from "./0008_webhook_deliveries.js"
import comments from "./0009_comments.js"
import commentReactionsReads from "./0010_comment_reactions_reads.js"
import workspaceOwnerEmailCase from "./0011_workspace_owner_email_case.js"
import webhookDeliveriesByKey from "./0012_webhook_deliveries_by_key.js"
import access from "./0013_access.js"
import accessVersions from "./0014_access_versions.js"
import webhookMessageOrganization from "./0015_webhook_message_organization.js"
import allowedDomainsByDomain from "./0016_allowed_domains_by_domain.js"
import realtimeLog from "./0017_realtime_log.js"
import presenceLive from "./0018_presence_live.js"
import notifications from "./0019_notifications.js"
import realtimeFollowChain from "./0020_realtime_follow_chain.js"
import liveState from "./0021_live_state.js"
import emails from "./0022_emails.js"
import basicWebhooks from "./0023_basic_webhooks.js"

/** The table that records which migrations a database has applied. */
export const MIGRATIONS_TABLE = "atrium_migrations"

/**
 * Every migration, for SQLite and PostgreSQL alike (ColumnTypes.ts holds the differences),
 * imported statically so that bundles (Lambda, single files) carry them. Ids are the numeric
 * prefixes; never renumber or rename a released one: databases record them.
 */
export const migrationRecord = {
  "0001_core": core,
  "0002_workspace_settings": workspaceSettings,
  "0003_people": people,
  "0004_activities": activities,
  "0005_webhooks": webhooks,
  "0006_jobs": jobs,
  "0007_tokens_agents_memory": tokensAgentsMemory,
  "0008_webhook_deliveries": webhookDeliveries,
  "0009_comments": comments,
  "0010_comment_reactions_reads": commentReactionsReads,
  "0011_workspace_owner_email_case": workspaceOwnerEmailCase,
  "0012_webhook_deliveries_by_key": webhookDeliveriesByKey,
  "0013_access": access,
  "0014_access_versions": accessVersions,
  "0015_webhook_message_organization": webhookMessageOrganization,
  "0016_allowed_domains_by_domain": allowedDomainsByDomain,
  "0017_realtime_log": realtimeLog,
  "0018_presence_live": presenceLive,
  "0019_notifications": notifications,
  "0020_realtime_follow_chain": realtimeFollowChain,
  "0021_live_state": liveState,
  "0022_emails": emails,
  "0023_basic_webhooks": basicWebhooks
}

export const migrations = Migrator.fromRecord(migrationRecord)
