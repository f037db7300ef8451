import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { defineDomain } from "../Domain.js"
import { Attempts } from "./Attempts.js"
import { Deliveries } from "./Deliveries.js"
import { messageOperations } from "./messageOperations.js"
import { deliveryOperations } from "./operations.js"
import { SqlDeliveriesRepo } from "./SqlDeliveriesRepo.js"
import { SqlOutboxRepo } from "./SqlOutboxRepo.js"
import { WebhookMessages } from "./WebhookMessages.js"
import { WebhookOutbox } from "./WebhookOutbox.js"

/** The webhook outbox (a listener of domain events), its messages, and their deliveries and attempts. */
export const deliveriesDomain = defineDomain({
  name: "deliveries",
  operations: [...messageOperations, ...deliveryOperations],
  // The attempts' operations read the messages they belong to.
  services: [Attempts.Default.pipe(Layer.provideMerge(WebhookMessages.Default)), Deliveries.Default],
  repositories: [SqlOutboxRepo, SqlDeliveriesRepo],
  events: { services: WebhookOutbox.Default, listeners: Effect.map(WebhookOutbox, (outbox) => [outbox.listener]) }
})
