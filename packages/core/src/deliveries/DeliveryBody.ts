/**
 * The body of a delivery (docs/decisions.md, "Webhooks"): `{webhookId, event, source, actionType,
 * timestamp, data}`, `source` and `actionType` being the event type's parts around its first dot.
 * The stored payload is JSON already, so it is spliced in as it is, not parsed and written again.
 */
export const deliveryBody = (message: {
  readonly messageId: string
  readonly eventType: string
  readonly payloadJson: string
  readonly messageCreatedAt: number
}): string => {
  const dot = message.eventType.indexOf(".")
  const source = dot < 0 ? message.eventType : message.eventType.slice(0, dot)
  const actionType = dot < 0 ? "" : message.eventType.slice(dot + 1)
  return `{"webhookId":${JSON.stringify(message.messageId)},"event":${JSON.stringify(message.eventType)},"source":${
    JSON.stringify(source)
  },"actionType":${JSON.stringify(actionType)},"timestamp":${message.messageCreatedAt},"data":${message.payloadJson}}`
}
