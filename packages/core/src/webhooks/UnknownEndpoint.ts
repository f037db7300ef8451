import { type ApiError, notFound } from "../protocol/ApiError.js"

/**
 * What every operation naming an endpoint the API key does not have answers (another key's
 * included): one message, naming the id, from the endpoint operations and the delivery ones alike
 * (docs/decisions.md, "Advanced webhooks"). The hosted service says "Advanced webhook provider
 * request failed.", which does not say what is missing.
 */
export const unknownEndpoint = (endpointId: string): ApiError<"NOT_FOUND"> => notFound(`Webhook endpoint ${endpointId} not found.`)
