import type { DisabledOrganization } from "../protocol/DisabledOrganization.js"

const outbox = "the webhook outbox: copies of events already emitted for the host's own endpoints, the host's delivery log. " +
  "A disabled organization emits no new events (its writes are refused); what it emitted before stays listed and resendable"

export const disabledOrganization: DisabledOrganization = {
  noOrganizationData: {
    "workspace.advancedwebhook.messages.create": "stores the host's own message: its payload is the caller's"
  },
  ruled: {
    "workspace.advancedwebhook.messages.get": outbox,
    "workspace.advancedwebhook.attempts.get": outbox,
    "workspace.advancedwebhook.messages.resend": outbox,
    "workspace.advancedwebhook.endpoints.recover": outbox
  }
}
