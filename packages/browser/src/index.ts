/**
 * @atrium/browser: Atrium's client API for the signed-in user of a web app, generated from the
 * operation table (every `user` operation). Tokens come from the host's `getToken`, renewed before
 * they expire and when Atrium answers `token_expired`; every call resolves to `{ result }` or a typed
 * `{ error }`. Plain `fetch`, no framework, no dependencies.
 */
export { AtriumError, type CallOptions, type CallStatus, orThrow } from "@atrium/client"
export { type Client, type ClientOptions, createClient, type ErrorOf, type OperationName, type Outcome } from "./Client.js"
export * from "./Operations.generated.js"
export type { GetToken } from "./TokenCache.js"
