import { defineDomain } from "../Domain.js"
import { webhookOperations } from "./operations.js"
import { SqlWebhookConfigRepo } from "./SqlWebhookConfigRepo.js"
import { SqlWebhookEndpointsRepo } from "./SqlWebhookEndpointsRepo.js"
import { BasicWebhooks } from "./BasicWebhooks.js"
import { WebhookConfigs } from "./WebhookConfigs.js"
import { WebhookEndpoints } from "./WebhookEndpoints.js"

/** Advanced webhooks' configuration and endpoints (the outbox and its deliveries are `deliveries/`). */
export const webhooksDomain = defineDomain({
  name: "webhooks",
  operations: webhookOperations,
  services: [WebhookConfigs.Default, WebhookEndpoints.Default, BasicWebhooks.Default],
  repositories: [SqlWebhookConfigRepo, SqlWebhookEndpointsRepo],
  otherTables: [
    { name: "advanced_webhook_configs", why: "the key's webhook settings" },
    { name: "webhook_endpoints", why: "the key's endpoints: URLs and secrets the host set, no user's data" }
  ]
})
