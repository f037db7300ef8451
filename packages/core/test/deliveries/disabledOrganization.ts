import type { AcrossOrganizations, DisabledOrganization } from "../protocol/DisabledOrganization.js"

const BASE = "/v2/workspace/advancedwebhook"

/** An event of the organization recorded as a webhook message: an activity whose text carries the mark. */
const recordEvent: AcrossOrganizations["seed"] = async (call, organizationId, mark) => {
  await call("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
  await call("/v2/activities/add", {
    organizationId,
    documentId: "doc",
    activities: [{ featureType: "comment", actionType: "add", actionUser: { userId: mark } }]
  })
}

export const disabledOrganization: DisabledOrganization = {
  noOrganizationData: {
    "workspace.advancedwebhook.messages.create": "stores the host's own message: its payload is the caller's"
  },
  ruled: {
    "workspace.advancedwebhook.messages.resend":
      "names a message, whose organization the service checks: a disabled organization's message is refused (test/deliveries/disabled-organization.test.ts)",
    "workspace.advancedwebhook.endpoints.recover":
      "resends the endpoint's failed deliveries but a disabled organization's, which wait for it to be enabled (test/deliveries/disabled-organization.test.ts)"
  },
  acrossOrganizations: {
    "workspace.advancedwebhook.messages.get": { seed: recordEvent, body: {} },
    "workspace.advancedwebhook.attempts.get": {
      // An endpoint of the organization's channel only, whose url carries the mark; nothing listens there, so its attempt fails.
      seed: async (call, organizationId, mark, server) => {
        await call("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
        await call(`${BASE}/endpoints/create`, { url: `http://127.0.0.1:9/${mark}`, channels: [organizationId] })
        await recordEvent(call, organizationId, mark, server)
        await server.runDue()
      },
      body: {}
    }
  }
}
