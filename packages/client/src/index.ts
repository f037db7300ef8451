/**
 * @atrium/client: a typed client for Atrium's HTTP API, generated from the operation table. Every
 * operation is a method named by its operationId; every call resolves to `{ result }` or a typed
 * `{ error }`; 429 and 503 are retried after their Retry-After; `pages` reads a paged operation to
 * its end; `verifyWebhook` checks a delivery. Runs on the platform's `fetch` and WebCrypto (Node
 * 20+, browsers); no dependencies.
 */
export { AtriumError } from "./AtriumError.js"
export {
  type CallArguments,
  callOperation,
  type CallOptions,
  type CallOutcome,
  type CallStatus,
  orThrow
} from "./Call.js"
export {
  type AtriumClient,
  type AtriumClientOptions,
  createAtriumClient,
  type ErrorOf,
  type Method,
  type OperationName,
  type Outcome,
  type PagedOperationName,
  type Resources
} from "./Client.js"
export { defaultRetries, type RetryOptions } from "./Retry.js"
export { verifyWebhook, type VerifyWebhookOptions, type WebhookEvent, WebhookVerificationError } from "./Webhooks.js"
export * from "./Operations.generated.js"
