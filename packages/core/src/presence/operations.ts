import { defineOperation } from "../protocol/Operation.js"
import { Presence } from "./Presence.js"
import { PresenceDeleteInput, PresenceResult, PresenceWriteInput } from "./PresenceSchemas.js"

export const presenceOperations = [
  defineOperation({
    name: "presence.add",
    paths: ["/v2/presence/add"],
    auth: "apiKey",
    summary: "Put users on a document's presence list, with their status.",
    input: PresenceWriteInput,
    output: PresenceResult,
    organization: (input) => input.organizationId,
    service: Presence,
    handler: (presence, input, caller) => presence.add(caller.apiKey, input)
  }),
  defineOperation({
    name: "presence.update",
    paths: ["/v2/presence/update"],
    auth: "apiKey",
    summary: "Change the name, email or status of users on a document's presence list.",
    input: PresenceWriteInput,
    output: PresenceResult,
    organization: (input) => input.organizationId,
    service: Presence,
    handler: (presence, input, caller) => presence.update(caller.apiKey, input)
  }),
  defineOperation({
    name: "presence.delete",
    paths: ["/v2/presence/delete"],
    auth: "apiKey",
    summary: "Remove users from a document's presence list.",
    input: PresenceDeleteInput,
    output: PresenceResult,
    organization: (input) => input.organizationId,
    service: Presence,
    handler: (presence, input, caller) => presence.delete(caller.apiKey, input)
  })
] as const
