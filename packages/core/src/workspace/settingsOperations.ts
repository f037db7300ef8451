import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { NoParameters } from "../schema/Common.js"
import { DOMAINS_ADDED, DOMAINS_REMOVED, WorkspaceSettings } from "./WorkspaceSettings.js"
import {
  AddDomainsResult,
  ActivityServiceResult,
  ApiKeyConfigResult,
  DeleteDomainsResult,
  DomainsInput,
  GetDomainsResult,
  EmailStatusInput,
  EmailStatusResult,
  LoginLinkResult,
  EmailServiceResult,
  NotificationServiceResult,
  UpdateEmailServiceInput,
  PermissionProviderResult,
  SendLoginLinkInput,
  UpdateActivityServiceInput,
  UpdateApiKeyConfigInput,
  UpdateApiKeyConfigResult,
  UpdateNotificationServiceInput,
  UpdatePermissionProviderInput
} from "./WorkspaceSettingsSchemas.js"

export const workspaceSettingsOperations = [
  defineOperation({
    name: "workspace.domains.add",
    paths: ["/v2/workspace/domains/add", "/v1/workspace/domains/add"],
    auth: "apiKey",
    summary: "Allow domains (URLs or bare domains, normalized). Some already allowed: INTERNAL with details (ALREADY_EXISTS under strictStatuses), the new ones still added.",
    input: DomainsInput,
    output: AddDomainsResult,
    errors: ["INTERNAL"],
    strictStatus: "ALREADY_EXISTS",
    service: WorkspaceSettings,
    handler: (workspaceSettings, input, caller) =>
      Effect.map(workspaceSettings.addDomains(caller.apiKey, input), answer(DOMAINS_ADDED))
  }),
  defineOperation({
    name: "workspace.domains.get",
    paths: ["/v2/workspace/domains/get"],
    auth: "apiKey",
    summary: "List the allowed domains.",
    input: NoParameters,
    output: GetDomainsResult,
    service: WorkspaceSettings,
    handler: (workspaceSettings, _, caller) =>
      Effect.map(workspaceSettings.getDomains(caller.apiKey), answer("Allowed domains retrieved successfully."))
  }),
  defineOperation({
    name: "workspace.domains.delete",
    paths: ["/v2/workspace/domains/delete", "/v1/workspace/domains/delete"],
    auth: "apiKey",
    summary: "Remove allowed domains. Some not in the list: INTERNAL with details (NOT_FOUND under strictStatuses), the others still removed.",
    input: DomainsInput,
    output: DeleteDomainsResult,
    errors: ["INTERNAL"],
    strictStatus: "NOT_FOUND",
    service: WorkspaceSettings,
    handler: (workspaceSettings, input, caller) =>
      Effect.map(workspaceSettings.deleteDomains(caller.apiKey, input), answer(DOMAINS_REMOVED))
  }),
  defineOperation({
    name: "workspace.permissionproviderconfig.get",
    paths: ["/v2/workspace/permissionproviderconfig/get"],
    auth: "apiKey",
    summary: "Read the permission provider settings (the auth token masked).",
    input: NoParameters,
    output: PermissionProviderResult,
    service: WorkspaceSettings,
    handler: (workspaceSettings, _, caller) =>
      Effect.map(workspaceSettings.getPermissionProviderConfig(caller.apiKey), answer("Permission provider configuration retrieved successfully."))
  }),
  defineOperation({
    name: "workspace.permissionproviderconfig.update",
    paths: ["/v2/workspace/permissionproviderconfig/update"],
    auth: "apiKey",
    summary: "Update the permission provider settings (partial); answers the stored settings, the auth token masked.",
    input: UpdatePermissionProviderInput,
    output: PermissionProviderResult,
    errors: ["INVALID_ARGUMENT"],
    service: WorkspaceSettings,
    handler: (workspaceSettings, input, caller) =>
      Effect.map(workspaceSettings.updatePermissionProviderConfig(caller.apiKey, input), answer("Permission provider configuration updated successfully."))
  }),
  defineOperation({
    name: "workspace.apikeyconfig.get",
    paths: ["/v2/workspace/apikeyconfig/get"],
    auth: "apiKey",
    summary: "Read the API key's settings: the access type of documents with none of their own and no folder.",
    input: NoParameters,
    output: ApiKeyConfigResult,
    service: WorkspaceSettings,
    handler: (workspaceSettings, _, caller) =>
      Effect.map(workspaceSettings.getApiKeyConfig(caller.apiKey), answer("API key configuration retrieved successfully."))
  }),
  defineOperation({
    name: "workspace.apikeyconfig.update",
    paths: ["/v2/workspace/apikeyconfig/update"],
    auth: "apiKey",
    summary: "Set the API key's default document access type; answers the fields written.",
    input: UpdateApiKeyConfigInput,
    output: UpdateApiKeyConfigResult,
    errors: ["INVALID_ARGUMENT"],
    service: WorkspaceSettings,
    handler: (workspaceSettings, input, caller) =>
      Effect.map(workspaceSettings.updateApiKeyConfig(caller.apiKey, input), answer("API key configuration updated successfully."))
  }),
  defineOperation({
    name: "workspace.notificationconfig.get",
    paths: ["/v2/workspace/notificationconfig/get"],
    auth: "apiKey",
    summary: "Read the notification service settings.",
    input: NoParameters,
    output: NotificationServiceResult,
    service: WorkspaceSettings,
    handler: (workspaceSettings, _, caller) =>
      Effect.map(workspaceSettings.getNotificationConfig(caller.apiKey), answer("Notification configuration retrieved successfully."))
  }),
  defineOperation({
    name: "workspace.notificationconfig.update",
    paths: ["/v2/workspace/notificationconfig/update"],
    auth: "apiKey",
    summary: "Update the notification service settings (deep partial); answers the stored settings.",
    input: UpdateNotificationServiceInput,
    output: NotificationServiceResult,
    errors: ["INVALID_ARGUMENT"],
    service: WorkspaceSettings,
    handler: (workspaceSettings, input, caller) =>
      Effect.map(workspaceSettings.updateNotificationConfig(caller.apiKey, input), answer("Notification configuration updated successfully."))
  }),
  defineOperation({
    name: "workspace.activityconfig.get",
    paths: ["/v2/workspace/activityconfig/get"],
    auth: "apiKey",
    summary: "Read the activity log settings: whether activities are recorded, whether they may be changed, and the comment triggers.",
    input: NoParameters,
    output: ActivityServiceResult,
    service: WorkspaceSettings,
    handler: (workspaceSettings, _, caller) =>
      Effect.map(workspaceSettings.getActivityConfig(caller.apiKey), answer("Activity configuration retrieved successfully."))
  }),
  defineOperation({
    name: "workspace.activityconfig.update",
    paths: ["/v2/workspace/activityconfig/update"],
    auth: "apiKey",
    summary: "Update the activity log settings (partial); the first enable makes the log immutable unless told otherwise. Answers the stored settings.",
    input: UpdateActivityServiceInput,
    output: ActivityServiceResult,
    errors: ["INVALID_ARGUMENT"],
    service: WorkspaceSettings,
    handler: (workspaceSettings, input, caller) =>
      Effect.map(workspaceSettings.updateActivityConfig(caller.apiKey, input), answer("Activity configuration updated successfully."))
  }),
  defineOperation({
    name: "workspace.emailconfig.get",
    paths: ["/v2/workspace/emailconfig/get"],
    auth: "apiKey",
    summary: "Read the email settings: whether notification emails go out, their sender, link and triggers.",
    input: NoParameters,
    output: EmailServiceResult,
    service: WorkspaceSettings,
    handler: (workspaceSettings, _, caller) =>
      Effect.map(workspaceSettings.getEmailConfig(caller.apiKey), answer("Email configuration retrieved successfully."))
  }),
  defineOperation({
    name: "workspace.emailconfig.update",
    paths: ["/v2/workspace/emailconfig/update"],
    auth: "apiKey",
    summary: "Update the email settings (partial); answers the stored settings.",
    input: UpdateEmailServiceInput,
    output: EmailServiceResult,
    errors: ["INVALID_ARGUMENT"],
    service: WorkspaceSettings,
    handler: (workspaceSettings, input, caller) =>
      Effect.map(workspaceSettings.updateEmailConfig(caller.apiKey, input), answer("Email configuration updated successfully."))
  }),
  defineOperation({
    name: "workspace.email.status",
    paths: ["/v2/workspace/email/status"],
    auth: "public",
    summary: "Whether an email owns a workspace with a verified email (an owner's always is in Atrium). Rate limited per IP.",
    input: EmailStatusInput,
    output: EmailStatusResult,
    errors: ["NOT_FOUND", "RESOURCE_EXHAUSTED"],
    service: WorkspaceSettings,
    handler: (workspaceSettings, input, caller) =>
      Effect.map(workspaceSettings.emailStatus(input, caller.ip), answer("Email verified and workspace reactivated"))
  }),
  defineOperation({
    name: "workspace.email.sendloginlink",
    paths: ["/v2/workspace/email/send-login-link"],
    auth: "public",
    summary: "Mail a workspace owner a sign-in link to continueUrl. Same answer for any email; rate limited per email and IP.",
    input: SendLoginLinkInput,
    output: LoginLinkResult,
    errors: ["INVALID_ARGUMENT", "RESOURCE_EXHAUSTED"],
    service: WorkspaceSettings,
    handler: (workspaceSettings, input, caller) =>
      Effect.as(workspaceSettings.sendLoginLink(input, caller.ip), answer("Login link sent successfully")(null))
  })
] as const
