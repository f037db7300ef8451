import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DeliverySignal } from "./deliveries/DeliverySignal.js"
import { mergeLayers } from "./Domain.js"
import { type Domain, domains } from "./domains.js"
import { EventEnrichers } from "./events/EventEnricher.js"
import { type EventListener, EventListeners } from "./events/EventListener.js"
import { Events } from "./events/Events.js"
import { Access } from "./protocol/Access.js"
import { PageTokens } from "./protocol/PageTokens.js"
import { RateLimiter } from "./protocol/RateLimiter.js"

/** Protocol services every domain uses, and the wake-up line from events to this process's delivery worker. */
export const ProtocolServices = Layer.mergeAll(Access.layer, PageTokens.layer, DeliverySignal.layer).pipe(Layer.provideMerge(RateLimiter.layer))

const eventful = domains.flatMap((domain) => "events" in domain ? [domain.events] : [])

/**
 * Events and who listens to them: the domains' listeners (the webhook outbox), in the domains'
 * order, then the host's own, and the domains' enrichers of events. The domain services emit
 * through Events, so it is provided to them, and so are the services the listeners are built on
 * (the outbox, for the webhook messages).
 */
const EventServices = (listeners: ReadonlyArray<EventListener>) =>
  Events.Default.pipe(
    Layer.provide(Layer.effect(
      EventListeners,
      Effect.map(Effect.all(eventful.map((events) => events.listeners)), (own) => [...own.flat(), ...listeners])
    )),
    Layer.provide(Layer.effect(
      EventEnrichers,
      Effect.map(Effect.all(eventful.flatMap((events) => "enrichers" in events ? [events.enrichers] : [])), (own) => own.flat())
    )),
    Layer.provideMerge(mergeLayers(eventful.map((events) => events.services)))
  )

/** The services domains share with each other (the access rule, token verification), beneath every domain's own. */
const SharedServices = mergeLayers(
  domains.flatMap<Extract<Domain, { readonly shared: unknown }>["shared"][number]>((domain) => "shared" in domain ? domain.shared : [])
)

/** Every domain's services; they need the storage port, the protocol services and Events (with these listeners besides the domains' own). */
export const DomainServices = (listeners: ReadonlyArray<EventListener> = []) =>
  mergeLayers(domains.flatMap<Domain["services"][number]>((domain) => domain.services)).pipe(
    Layer.provideMerge(SharedServices),
    Layer.provideMerge(EventServices(listeners)),
    Layer.provideMerge(ProtocolServices)
  )
