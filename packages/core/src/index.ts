/**
 * @atrium/core: every operation of the collaboration API as an Effect service
 * method, the operation table, and the framework-free request handler that
 * adapters mount. Adapter authors: use `createAtrium` and `AtriumRequest`/`AtriumResponse`.
 */
export { atriumLayer, type AtriumHandler, type AtriumLayerConfig, type AtriumServices, createAtrium } from "./Atrium.js"
export { AtriumConfig, type AtriumOptions, type AtriumOptionsInput, defaultOptions, resolveOptions } from "./Config.js"
export { operations } from "./operations.js"
export * from "./protocol/ApiError.js"
export type { AtriumRequest, AtriumResponse } from "./protocol/Dispatcher.js"
export { type ErrorStatus, httpStatusOf } from "./protocol/ErrorStatus.js"
export { defineOperation, type Operation } from "./protocol/Operation.js"
export { openApiDocument } from "./protocol/OpenApi.js"
export { Ids } from "./ports/Ids.js"
export { type Mail, Mailer } from "./ports/Mailer.js"
export { Transactions } from "./ports/Transactions.js"
export { WebhookTransport } from "./ports/WebhookTransport.js"
export type { StorageServices } from "./Storage.js"
export { Documents } from "./documents/Documents.js"
export { Organizations } from "./organizations/Organizations.js"
export { Workspaces } from "./workspace/Workspaces.js"
