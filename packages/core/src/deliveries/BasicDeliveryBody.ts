/**
 * Basic (v1) webhooks (docs/webhooks.md, "Basic webhooks"): the comment events a key's basic
 * webhook may receive, each with the v1 `actionType` the hosted service sends it as (compatibility
 * facts §2.2). Other events (activities, access, notifications, the host's own messages) have no
 * v1 shape and go to advanced endpoints only.
 */
export const BASIC_ACTION_TYPES: Readonly<Record<string, string>> = {
  "comment_annotation.add": "newlyAdded",
  "comment.add": "added",
  "comment.update": "updated",
  "comment.delete": "deleted",
  "comment_annotation.status_change": "statusChanged",
  "comment_annotation.assign": "assigned",
  "comment_annotation.priority_change": "priorityChanged",
  "comment.reaction_add": "reactionAdded",
  "comment.reaction_delete": "reactionDeleted"
}

/** Whether a message goes to a basic webhook: a comment event's (activities/add may emit a `comment.add` of its own, about an activity). */
export const basicReceives = (eventType: string, payload: unknown): boolean =>
  eventType in BASIC_ACTION_TYPES && typeof payload === "object" && payload !== null && "commentAnnotation" in payload

/**
 * The v1 body: `{webhookId, actionType, notificationSource: "comment", platform: "sdk", visibility,
 * …the event's data}` (the thread, the comment, who acted, metadata, and the users' notification
 * settings where the event carries them).
 */
export const basicDeliveryBody = (message: { readonly messageId: string; readonly eventType: string; readonly payloadJson: string }): string => {
  const payload = JSON.parse(message.payloadJson) as { readonly commentAnnotation?: { readonly visibilityConfig?: unknown } }
  return JSON.stringify({
    webhookId: message.messageId,
    actionType: BASIC_ACTION_TYPES[message.eventType] ?? message.eventType,
    notificationSource: "comment",
    platform: "sdk",
    visibility: payload.commentAnnotation?.visibilityConfig ?? { type: "public" },
    ...payload
  })
}
