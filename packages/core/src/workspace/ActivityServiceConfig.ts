import * as Effect from "effect/Effect"
import { failedPrecondition } from "../protocol/ApiError.js"
import type { SettingsRepo } from "./SettingsRepo.js"
import type { ActivityServiceSettings, UpdateActivityServiceInput } from "./WorkspaceSettingsSchemas.js"

export type ActivityService = typeof ActivityServiceSettings.Type

/**
 * Until configured: on, and mutable, every trigger on. Atrium's activity log works without a
 * setting (the spec's activities operations do), where the hosted service starts off
 * (docs/decisions.md, "Workspace settings").
 */
export const DEFAULT_ACTIVITY_SERVICE: ActivityService = {
  activityServiceConfig: { isEnabled: true, immutable: false, triggers: { comment: {} } }
}

/** The settings document's name (SettingsRepo). */
export const ACTIVITY_SERVICE = "activityService"

/** The key's activity settings as stored, or the defaults. */
export const storedActivityService = (settings: SettingsRepo["Type"], apiKey: string): Effect.Effect<ActivityService> =>
  Effect.map(settings.get(apiKey, ACTIVITY_SERVICE), (stored) => (stored as ActivityService | undefined) ?? DEFAULT_ACTIVITY_SERVICE)

/**
 * The update merged key by key over the stored settings (triggers one by one). The first enable
 * of a key that never stored its settings makes the log immutable unless the call says otherwise,
 * and stamps `enabledTime` (the hosted service's first enable).
 */
export const mergeActivityService = (
  stored: ActivityService | undefined,
  update: typeof UpdateActivityServiceInput.Type,
  now: number
): ActivityService => {
  const { triggers, ...current } = (stored ?? DEFAULT_ACTIVITY_SERVICE).activityServiceConfig
  const { triggers: patchTriggers, ...patch } = update.activityServiceConfig
  const firstEnable = stored === undefined && patch.isEnabled === true
  return {
    activityServiceConfig: {
      ...current,
      ...(firstEnable && { immutable: true, enabledTime: now }),
      ...patch,
      triggers: { comment: { ...triggers.comment, ...patchTriggers?.comment } }
    }
  }
}

/** What activities/add answers while the log is off. */
export const ACTIVITIES_DISABLED =
  "Activities are disabled for this workspace. Enable them via POST /v2/workspace/activityconfig/update with { \"activityServiceConfig\": { \"isEnabled\": true } }."

/** What activities/update and activities/delete answer while the log is immutable. */
export const ACTIVITIES_IMMUTABLE =
  "Activities are immutable for this workspace. Turn that off via POST /v2/workspace/activityconfig/update with { \"activityServiceConfig\": { \"immutable\": false } }."

/** activities/add's gate: FAILED_PRECONDITION while the workspace's log is off. */
export const requireActivitiesEnabled = (settings: SettingsRepo["Type"], apiKey: string) =>
  Effect.flatMap(storedActivityService(settings, apiKey), ({ activityServiceConfig }) =>
    activityServiceConfig.isEnabled ? Effect.void : Effect.fail(failedPrecondition(ACTIVITIES_DISABLED)))

/** activities/update's and activities/delete's gate: FAILED_PRECONDITION while the log is immutable (erasure still removes activities). */
export const requireActivitiesMutable = (settings: SettingsRepo["Type"], apiKey: string) =>
  Effect.flatMap(storedActivityService(settings, apiKey), ({ activityServiceConfig }) =>
    activityServiceConfig.immutable ? Effect.fail(failedPrecondition(ACTIVITIES_IMMUTABLE)) : Effect.void)

/** Whether a comment sent with `triggerActivities` records its activity: the log on and the comment trigger (`comment.add`, …) not off. */
export const recordsCommentActivity = (settings: SettingsRepo["Type"], apiKey: string, actionType: string) =>
  Effect.map(storedActivityService(settings, apiKey), ({ activityServiceConfig }) =>
    activityServiceConfig.isEnabled && activityServiceConfig.triggers.comment[actionType] !== false)
