import * as Migrator from "@effect/sql/Migrator"
import core from "./0001_core.js"
import workspaceSettings from "./0002_workspace_settings.js"
import people from "./0003_people.js"
import activities from "./0004_activities.js"
import webhooks from "./0005_webhooks.js"
import jobs from "./0006_jobs.js"
import tokensAgentsMemory from "./0007_tokens_agents_memory.js"

/**
 * Every PostgreSQL migration, imported statically so that bundles (Lambda, single
 * files) carry them. Ids are the numeric prefixes; never renumber a released one.
 */
export const migrations = Migrator.fromRecord({
  "0001_core": core,
  "0002_workspace_settings": workspaceSettings,
  "0003_people": people,
  "0004_activities": activities,
  "0005_webhooks": webhooks,
  "0006_jobs": jobs,
  "0007_tokens_agents_memory": tokensAgentsMemory
})
