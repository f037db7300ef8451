/**
 * @atrium/client: a typed client for Atrium's HTTP API, generated from the operation table. Every
 * operation is a method named by its operationId; every call resolves to `{ result }` or a typed
 * `{ error }`. Runs on the platform's `fetch` (Node 20+, browsers); no dependencies.
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
  type OperationName,
  type Outcome
} from "./Client.js"
export * from "./Operations.generated.js"
