import type { DisabledOrganization } from "../protocol/DisabledOrganization.js"

const settings = "the key's advanced webhook settings and endpoints (URLs, filters, secrets): no organization's data"

export const disabledOrganization: DisabledOrganization = {
  noOrganizationData: {
    "workspace.webhookconfig.get": "the key's basic webhook settings (URL, token, triggers): no organization's data",
    "workspace.webhookconfig.update": "the key's basic webhook settings (URL, token, triggers): no organization's data",
    "workspace.advancedwebhookconfig.get": settings,
    "workspace.advancedwebhookconfig.update": settings,
    "workspace.advancedwebhook.endpoints.create": settings,
    "workspace.advancedwebhook.endpoints.get": settings,
    "workspace.advancedwebhook.endpoints.update": settings,
    "workspace.advancedwebhook.endpoints.delete": settings,
    "workspace.advancedwebhook.endpoints.secret.get": settings,
    "workspace.advancedwebhook.endpoints.secret.rotate": settings
  }
}
