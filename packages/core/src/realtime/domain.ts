import { defineDomain } from "../Domain.js"
import { SqlRealtimeLogRepo } from "./SqlRealtimeLogRepo.js"

/** Realtime (docs/realtime.md): the log of followed documents' events, and who follows which key. */
export const realtimeDomain = defineDomain({
  name: "realtime",
  operations: [],
  services: [],
  repositories: [SqlRealtimeLogRepo]
})
