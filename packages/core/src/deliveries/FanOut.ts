import type { WebhookEndpointRow } from "../webhooks/WebhookEndpointsRepo.js"

/** Svix's operational event: sent when a message's attempts to an endpoint run out. */
export const ATTEMPT_EXHAUSTED = "message.attempt.exhausted"

/**
 * Whether `endpoint` receives an event of `type` on `channels` (docs/decisions.md, "Webhooks"):
 * enabled; `filterTypes` null (every type but `message.attempt.exhausted`, which must be named)
 * or holding the type; `channels` null or sharing one channel with the event.
 */
export const receives = (endpoint: WebhookEndpointRow, type: string, channels: ReadonlyArray<string>): boolean =>
  !endpoint.disabled &&
  (endpoint.filterTypes === null ? type !== ATTEMPT_EXHAUSTED : endpoint.filterTypes.includes(type)) &&
  (endpoint.channels === null || endpoint.channels.some((channel) => channels.includes(channel)))
