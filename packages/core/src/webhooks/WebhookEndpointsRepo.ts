import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/**
 * An advanced webhook endpoint of one API key. The signing secret is kept
 * beside the row in storage but is not part of it, so no code that renders a
 * record can leak it (spec "Advanced webhook endpoint").
 */
export interface WebhookEndpointRow {
  readonly apiKey: string
  readonly id: string
  readonly url: string
  readonly description: string | null
  /** null: every event type. */
  readonly filterTypes: ReadonlyArray<string> | null
  /** null: every channel. */
  readonly channels: ReadonlyArray<string> | null
  readonly disabled: boolean
  /** Deliveries per second; null: unlimited. */
  readonly rateLimit: number | null
  /** Caller-assigned id, unique per API key. */
  readonly uid: string | null
  /** Stored, never echoed in the record, as by the hosted service. */
  readonly metadata: Readonly<Record<string, string>>
  readonly createdAt: number
  readonly updatedAt: number
  /** "basic": the key's basic (v1) webhook (`webhookconfig`), listed only by `listEnabled`; absent: an advanced endpoint. */
  readonly kind?: "basic"
}

/** The id of a key's basic webhook endpoint (advanced ids start with `ep_`). */
export const BASIC_ENDPOINT_ID = "basic"

/** The key's basic webhook as its endpoint keeps it. */
export interface BasicEndpoint {
  readonly url: string
  /** The event types it receives (the enabled triggers'). */
  readonly filterTypes: ReadonlyArray<string>
  readonly disabled: boolean
  /** Sent as `Authorization: Basic <authToken>`; "" sends none. */
  readonly authToken: string
}

/** A place in the list order, (createdAt, id). */
export interface EndpointPosition {
  readonly createdAt: number
  readonly id: string
}

/** Storage port: advanced webhook endpoints and their signing secrets. */
export class WebhookEndpointsRepo extends Context.Tag("@atrium/core/WebhookEndpointsRepo")<WebhookEndpointsRepo, {
  /** Inserts the endpoint with its signing secret; false (nothing written) when the key already has an endpoint with this uid. */
  readonly insert: (row: WebhookEndpointRow, secret: string) => Effect.Effect<boolean>
  /** Writes the key's basic webhook endpoint (`BASIC_ENDPOINT_ID`), creating it the first time with an unused secret. */
  readonly putBasic: (apiKey: string, basic: BasicEndpoint, secret: string, now: number) => Effect.Effect<void>
  /** How many advanced endpoints the key has, disabled ones included. */
  readonly count: (apiKey: string) => Effect.Effect<number>
  readonly find: (apiKey: string, id: string) => Effect.Effect<WebhookEndpointRow | undefined>
  /**
   * Keyset page in (createdAt, id) order: `after` a position (or from the start) ascending,
   * or the rows just `before` a position, nearest first (descending).
   */
  readonly list: (
    apiKey: string,
    options: { readonly after?: EndpointPosition; readonly before?: EndpointPosition; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<WebhookEndpointRow>>
  /** Writes the mutable fields (url, description, filters, disabled, rateLimit, metadata, updatedAt) of an existing endpoint. */
  readonly update: (row: WebhookEndpointRow) => Effect.Effect<void>
  /** Removes the endpoint and its secret; false when the key has no such endpoint. */
  readonly delete: (apiKey: string, id: string) => Effect.Effect<boolean>
  readonly findSecret: (apiKey: string, id: string) => Effect.Effect<string | undefined>
  /** Every enabled endpoint of the key, its basic webhook's included: the candidates of a fan-out. */
  readonly listEnabled: (apiKey: string) => Effect.Effect<ReadonlyArray<WebhookEndpointRow>>
  /** Replaces the secret; the old one keeps signing until `previousUntil`. False when the key has no such endpoint. */
  readonly rotateSecret: (apiKey: string, id: string, secret: string, previousUntil: number, now: number) => Effect.Effect<boolean>
  /** Disables the endpoint (a 410, or five days of failures). */
  readonly disable: (apiKey: string, id: string, now: number) => Effect.Effect<void>
}>() {}
