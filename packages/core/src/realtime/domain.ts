import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { defineDomain } from "../Domain.js"
import { NotificationsLayer } from "../notifications/domain.js"
import { Followers } from "./Followers.js"
import { LivePresence } from "./LivePresence.js"
import { RealtimeHub } from "./RealtimeHub.js"
import { RealtimeListener } from "./RealtimeListener.js"
import { SqlRealtimeLogRepo } from "./SqlRealtimeLogRepo.js"

/** Realtime (docs/realtime.md): the log of followed documents' events, who follows which key, its listener, each server's hub of connections and the presence they hold. */
export const realtimeDomain = defineDomain({
  name: "realtime",
  operations: [],
  services: [RealtimeHub.Default.pipe(Layer.provide(LivePresence.Default), Layer.provide(NotificationsLayer))],
  repositories: [SqlRealtimeLogRepo],
  dataTables: [
    // The log of a document's events (their data); a migration leaves it, numbered under the old id.
    { name: "realtime_events", apiKey: "api_key", organization: "organization_id", document: "document_id", migrated: false }
  ],
  otherTables: [
    { name: "realtime_documents", why: "each document's last event number, no data: a page that reconnects after a deletion must see the numbers go on, not start again" },
    { name: "realtime_followers", why: "which server follows which key, and until when" }
  ],
  events: {
    services: RealtimeListener.Default.pipe(Layer.provideMerge(Followers.Default)),
    listeners: Effect.map(RealtimeListener, (realtime) => [realtime.listener])
  }
})
