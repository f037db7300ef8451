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
  dataTables: [{
    // A message carries its event's data: it goes with the organization, and with a document its payload names.
    name: "webhook_messages",
    apiKey: "api_key",
    organization: "organization_id",
    json: ["channels", "payload"],
    mentions: {
      column: "payload",
      // Comment and activity events say `"documentId":…`; access events name their resource.
      document: (documentId) => [`"documentId":${JSON.stringify(documentId)}`, `"type":"document","id":${JSON.stringify(documentId)}`],
      // Every event that carries a user names it `"userId":…` (an author, who acted, who was granted).
      user: (userId) => [`"userId":${JSON.stringify(userId)}`]
    },
    children: ["webhook_deliveries", "webhook_attempts"].map((table) => ({ table, on: [["api_key", "api_key"], ["message_id", "id"]] as const }))
  }],
  events: { services: WebhookOutbox.Default, listeners: Effect.map(WebhookOutbox, (outbox) => [outbox.listener]) }
})
