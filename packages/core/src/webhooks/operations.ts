import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { NoParameters } from "../schema/Common.js"
import { BasicWebhookResult, UpdateBasicWebhookInput } from "./BasicWebhookSchemas.js"
import { BasicWebhooks } from "./BasicWebhooks.js"
import { UpdateWebhookConfigInput, WebhookConfigResult } from "./WebhookConfigSchemas.js"
import { WebhookConfigs } from "./WebhookConfigs.js"
import {
  CreateEndpointInput,
  EndpointDeletedResult,
  EndpointIdInput,
  EndpointResult,
  EndpointSecretResult,
  RotatedSecretResult,
  EndpointsPage,
  ListEndpointsInput,
  UpdateEndpointInput
} from "./WebhookEndpointSchemas.js"
import { WebhookEndpoints } from "./WebhookEndpoints.js"

export const webhookOperations = [
  defineOperation({
    name: "workspace.webhookconfig.get",
    paths: ["/v2/workspace/webhookconfig/get"],
    auth: "apiKey",
    summary: "Read the basic (v1) webhook settings: whether comment events go to rawNotificationUrl, its token and the triggers.",
    input: NoParameters,
    output: BasicWebhookResult,
    service: BasicWebhooks,
    handler: (basicWebhooks, _, caller) =>
      Effect.map(basicWebhooks.get(caller.apiKey), answer("Webhook configuration retrieved successfully."))
  }),
  defineOperation({
    name: "workspace.webhookconfig.update",
    paths: ["/v2/workspace/webhookconfig/update"],
    auth: "apiKey",
    summary: "Update the basic (v1) webhook settings (partial): comment events are sent unsigned to rawNotificationUrl with Authorization: Basic <authToken>. Answers the state.",
    input: UpdateBasicWebhookInput,
    output: BasicWebhookResult,
    errors: ["INVALID_ARGUMENT"],
    service: BasicWebhooks,
    handler: (basicWebhooks, input, caller) =>
      Effect.map(basicWebhooks.update(caller.apiKey, input), answer("Webhook configuration updated successfully."))
  }),
  defineOperation({
    name: "workspace.advancedwebhookconfig.get",
    paths: ["/v2/workspace/advancedwebhookconfig/get"],
    auth: "apiKey",
    summary: "Read the advanced-webhook settings (all off before the first configuration).",
    input: NoParameters,
    output: WebhookConfigResult,
    service: WebhookConfigs,
    handler: (webhookConfigs, _, caller) =>
      Effect.map(webhookConfigs.get(caller.apiKey), answer("Advanced webhook configuration retrieved successfully."))
  }),
  defineOperation({
    name: "workspace.advancedwebhookconfig.update",
    paths: ["/v2/workspace/advancedwebhookconfig/update"],
    auth: "apiKey",
    summary: "Change advanced-webhook settings; the first change must be { isEnabled: true }.",
    input: UpdateWebhookConfigInput,
    output: WebhookConfigResult,
    errors: ["INVALID_ARGUMENT", "FAILED_PRECONDITION"],
    service: WebhookConfigs,
    handler: (webhookConfigs, input, caller) =>
      Effect.map(webhookConfigs.update(caller.apiKey, input), answer("Advanced webhook configuration updated successfully."))
  }),
  defineOperation({
    name: "workspace.advancedwebhook.endpoints.create",
    paths: ["/v2/workspace/advancedwebhook/endpoints/create"],
    auth: "apiKey",
    summary: "Create a webhook endpoint; its signing secret is generated here and read with endpoints/secret/get.",
    input: CreateEndpointInput,
    output: EndpointResult,
    errors: ["INVALID_ARGUMENT", "FAILED_PRECONDITION", "ALREADY_EXISTS"],
    service: WebhookEndpoints,
    handler: (webhookEndpoints, input, caller) =>
      Effect.map(webhookEndpoints.create(caller.apiKey, input), answer("Advanced webhook endpoint created successfully."))
  }),
  defineOperation({
    name: "workspace.advancedwebhook.endpoints.get",
    paths: ["/v2/workspace/advancedwebhook/endpoints/get"],
    auth: "apiKey",
    summary: "List webhook endpoints, oldest first; pass iterator for the next page, prevIterator for the previous one.",
    input: ListEndpointsInput,
    output: EndpointsPage,
    errors: ["INVALID_ARGUMENT", "FAILED_PRECONDITION"],
    service: WebhookEndpoints,
    handler: (webhookEndpoints, input, caller) =>
      Effect.map(webhookEndpoints.list(caller.apiKey, input), answer("Advanced webhook endpoints retrieved successfully."))
  }),
  defineOperation({
    name: "workspace.advancedwebhook.endpoints.update",
    paths: ["/v2/workspace/advancedwebhook/endpoints/update"],
    auth: "apiKey",
    summary: "Change some fields of a webhook endpoint (null clears description, filterTypes, channels, rateLimit).",
    input: UpdateEndpointInput,
    output: EndpointResult,
    errors: ["INVALID_ARGUMENT", "FAILED_PRECONDITION", "NOT_FOUND"],
    service: WebhookEndpoints,
    handler: (webhookEndpoints, input, caller) =>
      Effect.map(webhookEndpoints.update(caller.apiKey, input), answer("Advanced webhook endpoint updated successfully."))
  }),
  defineOperation({
    name: "workspace.advancedwebhook.endpoints.delete",
    paths: ["/v2/workspace/advancedwebhook/endpoints/delete"],
    auth: "apiKey",
    summary: "Delete a webhook endpoint: its deliveries stop and its signing secret is gone.",
    input: EndpointIdInput,
    output: EndpointDeletedResult,
    errors: ["FAILED_PRECONDITION", "NOT_FOUND"],
    service: WebhookEndpoints,
    handler: (webhookEndpoints, input, caller) =>
      Effect.map(webhookEndpoints.delete(caller.apiKey, input.endpointId), answer("Advanced webhook endpoint deleted successfully."))
  }),
  defineOperation({
    name: "workspace.advancedwebhook.endpoints.secret.get",
    paths: ["/v2/workspace/advancedwebhook/endpoints/secret/get"],
    auth: "apiKey",
    summary: "Read a webhook endpoint's signing secret (whsec_…), to verify deliveries.",
    input: EndpointIdInput,
    output: EndpointSecretResult,
    errors: ["FAILED_PRECONDITION", "NOT_FOUND"],
    service: WebhookEndpoints,
    handler: (webhookEndpoints, input, caller) =>
      Effect.map(webhookEndpoints.getSecret(caller.apiKey, input.endpointId), answer("Advanced webhook endpoint secret retrieved successfully."))
  }),
  defineOperation({
    name: "workspace.advancedwebhook.endpoints.secret.rotate",
    paths: ["/v2/workspace/advancedwebhook/endpoints/secret/rotate"],
    auth: "apiKey",
    summary: "Replace a webhook endpoint's signing secret; the old one keeps signing beside the new one for 24 h.",
    input: EndpointIdInput,
    output: RotatedSecretResult,
    errors: ["FAILED_PRECONDITION", "NOT_FOUND"],
    service: WebhookEndpoints,
    handler: (webhookEndpoints, input, caller) =>
      Effect.map(webhookEndpoints.rotateSecret(caller.apiKey, input.endpointId), answer("Advanced webhook endpoint secret rotated successfully."))
  })
] as const
