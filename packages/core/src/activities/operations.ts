import * as Effect from "effect/Effect"
import { answer, answerPage } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import {
  ActivitiesPage,
  AddActivitiesInput,
  AddActivitiesResult,
  DeleteActivitiesInput,
  GetActivitiesInput,
  UpdateActivitiesInput,
  UpdateActivitiesResult
} from "./ActivitySchemas.js"
import { Activities } from "./Activities.js"

/** activities/add's answer repeats its message as `data` (the hosted service's shape), whatever was added. */
const ADDED = "Activity(s) added successfully."

export const activityOperations = [
  defineOperation({
    name: "activities.add",
    paths: ["/v2/activities/add"],
    auth: "apiKey",
    summary: "Record activities on a document; an existing id is overwritten. Refused while the workspace's activity log is off (activityconfig).",
    input: AddActivitiesInput,
    output: AddActivitiesResult,
    errors: ["FAILED_PRECONDITION"],
    organization: (input) => input.organizationId,
    service: Activities,
    handler: (activities, input, caller) =>
      Effect.as(activities.add(caller.apiKey, input), answer(ADDED)({ success: true, message: ADDED }))
  }),
  defineOperation({
    name: "activities.get",
    paths: ["/v2/activities/get"],
    auth: "apiKey",
    summary: "List an organization's activities by document, target, feature, action, user or id, newest first by default, a page at a time.",
    input: GetActivitiesInput,
    output: ActivitiesPage,
    errors: ["INVALID_ARGUMENT"],
    organization: (input) => input.organizationId,
    service: Activities,
    handler: (activities, input, caller) =>
      Effect.map(activities.get(caller.apiKey, input), answerPage("Activity(s) retrieved successfully.", "pageToken"))
  }),
  defineOperation({
    name: "activities.update",
    paths: ["/v2/activities/update"],
    auth: "apiKey",
    summary: "Update the display and change fields of activities; an unknown id fails only that item. Refused while the log is immutable (activityconfig).",
    input: UpdateActivitiesInput,
    output: UpdateActivitiesResult,
    errors: ["FAILED_PRECONDITION"],
    organization: (input) => input.organizationId,
    service: Activities,
    handler: (activities, input, caller) =>
      Effect.map(activities.update(caller.apiKey, input), answer("Activity(s) updated successfully."))
  }),
  defineOperation({
    name: "activities.delete",
    paths: ["/v2/activities/delete"],
    auth: "apiKey",
    summary: "Delete an organization's activities by id, document or target (they combine; at least one is required), answered per activity id. Refused while the log is immutable (activityconfig).",
    input: DeleteActivitiesInput,
    output: UpdateActivitiesResult,
    errors: ["INVALID_ARGUMENT", "FAILED_PRECONDITION"],
    organization: (input) => input.organizationId,
    service: Activities,
    handler: (activities, input, caller) =>
      Effect.map(activities.delete(caller.apiKey, input), answer("Activity(s) deleted successfully."))
  })
] as const
