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
  events: {
    services: RealtimeListener.Default.pipe(Layer.provideMerge(Followers.Default)),
    listeners: Effect.map(RealtimeListener, (realtime) => [realtime.listener])
  }
})
