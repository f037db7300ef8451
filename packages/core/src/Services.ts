import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Activities } from "./activities/Activities.js"
import { Agents } from "./agents/Agents.js"
import { Comments } from "./comments/Comments.js"
import { Attempts } from "./deliveries/Attempts.js"
import { Deliveries } from "./deliveries/Deliveries.js"
import { DeliverySignal } from "./deliveries/DeliverySignal.js"
import { Documents } from "./documents/Documents.js"
import { WebhookMessages } from "./deliveries/WebhookMessages.js"
import { WebhookOutbox } from "./deliveries/WebhookOutbox.js"
import { type EventListener, EventListeners } from "./events/EventListener.js"
import { Events } from "./events/Events.js"
import { Folders } from "./folders/Folders.js"
import { JobRunner } from "./jobs/JobRunner.js"
import { Jobs } from "./jobs/Jobs.js"
import { Judgments } from "./judgments/Judgments.js"
import { NotificationPreferences } from "./notifications/NotificationPreferences.js"
import { Organizations } from "./organizations/Organizations.js"
import { Presence } from "./presence/Presence.js"
import { Access } from "./protocol/Access.js"
import { PageTokens } from "./protocol/PageTokens.js"
import { RateLimiter } from "./protocol/RateLimiter.js"
import { Tokens } from "./tokens/Tokens.js"
import { UserGroups } from "./users/UserGroups.js"
import { Users } from "./users/Users.js"
import { WebhookConfigs } from "./webhooks/WebhookConfigs.js"
import { WebhookEndpoints } from "./webhooks/WebhookEndpoints.js"
import { Workspaces } from "./workspace/Workspaces.js"
import { WorkspaceSettings } from "./workspace/WorkspaceSettings.js"

/** Protocol services every domain uses, and the wake-up line from events to this process's delivery worker. */
export const ProtocolServices = Layer.mergeAll(Access.layer, PageTokens.layer, DeliverySignal.layer).pipe(Layer.provideMerge(RateLimiter.layer))

/**
 * Events and who listens to them: the webhook outbox, then the host's own listeners. The domain
 * services that record user actions emit through Events, so it is provided to them (and the
 * outbox's messages to the deliveries).
 */
const EventServices = (listeners: ReadonlyArray<EventListener>) =>
  Layer.merge(
    Events.Default.pipe(Layer.provide(Layer.effect(EventListeners, Effect.map(WebhookOutbox, (outbox) => [outbox.listener, ...listeners])))),
    WebhookMessages.Default
  ).pipe(Layer.provideMerge(WebhookOutbox.Default))

/** Every domain service; each needs the storage port, the protocol services and Events (with these listeners besides Atrium's own). */
export const DomainServices = (listeners: ReadonlyArray<EventListener> = []) => Layer.mergeAll(
  Workspaces.Default,
  WorkspaceSettings.Default,
  Organizations.Default,
  Documents.Default,
  Users.Default,
  UserGroups.Default,
  Presence.Default,
  NotificationPreferences.Default,
  Jobs.Default,
  JobRunner.Default,
  Folders.Default,
  Activities.Default,
  Comments.Default,
  WebhookConfigs.Default,
  WebhookEndpoints.Default,
  Tokens.Default,
  Agents.Default,
  Judgments.Default,
  Deliveries.Default,
  Attempts.Default
).pipe(Layer.provideMerge(EventServices(listeners)), Layer.provideMerge(ProtocolServices))
