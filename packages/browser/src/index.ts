/**
 * @atrium/browser: Atrium's client API for the signed-in user of a web app, generated from the
 * operation table (every `user` operation). Tokens come from the host's `getToken`, renewed before
 * they expire and when Atrium answers `token_expired`; every call resolves to `{ result }` or a typed
 * `{ error }`. Realtime: `enter` a document for its events and presence over one WebSocket,
 * reconnected and resumed by itself. Plain `fetch` and `WebSocket`, no framework, no dependencies.
 */
export { AtriumError, type CallOptions, type CallStatus, orThrow } from "@atrium/client"
export { type Client, type ClientOptions, createClient, type ErrorOf, type Operating, type OperationName, type Outcome } from "./Client.js"
export * from "./Operations.generated.js"
export { type RealtimeApi, type RealtimeState, type RealtimeStatus } from "./Realtime.js"
export type { PresenceEntry, PresenceStatus, RealtimeNotification, RoomBroadcast, RoomEvent } from "./RealtimeMessages.js"
export type { Room, RoomNotice, RoomPresence, RoomState } from "./Room.js"
export type { Topic } from "./Topic.js"
export type { GetToken } from "./TokenCache.js"
