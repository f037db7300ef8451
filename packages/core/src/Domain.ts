import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { EventEnricher } from "./events/EventEnricher.js"
import type { EventListener } from "./events/EventListener.js"
import type { DataTable } from "./jobs/JobTables.js"
import type { Operation } from "./protocol/Operation.js"

/** Any Layer: one that provides something (its output is contravariant, so `never` takes every output). */
type AnyLayer = Layer.Layer<never, unknown, unknown>

/**
 * Everything the house needs to know about one domain, declared in its folder (`<domain>/domain.ts`)
 * and listed once in `domains.ts`: every registry (the services, the storage, the operation table,
 * the jobs' tables, the OpenAPI tags) derives from that list (docs/architecture.md, "A new domain").
 */
export interface DomainDescriptor {
  /** The domain's folder under `packages/core/src/` (`packages/core/test/architecture.test.ts` checks it). */
  readonly name: string
  /** Its rows of the operation table, in the order the reference lists them. */
  readonly operations: ReadonlyArray<Operation>
  /** Its services' Layers (`Comments.Default`): they may need the storage, the protocol services, Events and other domains' listeners' services. */
  readonly services: ReadonlyArray<AnyLayer>
  /**
   * Its services that other domains' services use (the access rule, token verification): built
   * beneath every domain's `services`, so they may need only the storage, the protocol services
   * and Events. Omitted: none.
   */
  readonly shared?: ReadonlyArray<AnyLayer>
  /** Its SQL repositories (`SqlCommentsRepo`): each provides the repository port beside it, on every SQL storage. */
  readonly repositories: ReadonlyArray<AnyLayer>
  /**
   * Its tables holding organizations', documents' or users' data: what deleting an organization, a
   * folder, a document or a user's data removes, and what a document migration moves
   * (jobs/JobTables.ts says how). Omitted: none.
   */
  readonly dataTables?: ReadonlyArray<DataTable>
  /**
   * Its other tables, which hold no organization's, document's or user's data, each with why (the
   * key's settings, counters): the deletions and exports pass them by. Every table of the schema
   * is in some domain's `dataTables` (or a child of one) or here: test/jobs/inventory.test.ts.
   */
  readonly otherTables?: ReadonlyArray<{ readonly name: string; readonly why: string }>
  /** The OpenAPI tags it introduces (a tag is a path's first segment after the version), with their descriptions. */
  readonly tags?: ReadonlyArray<{ readonly name: string; readonly description: string }>
  /**
   * Its listeners of domain events (events/EventListener.ts), told after each other in the order of
   * the domain list and before the host's: `services` builds what they need, `listeners` reads them;
   * `enrichers` (events/EventEnricher.ts), what it adds to other domains' events before any listener
   * is told, read the same way (omitted: none).
   */
  readonly events?: {
    readonly services: AnyLayer
    readonly listeners: Effect.Effect<ReadonlyArray<EventListener>, never, unknown>
    readonly enrichers?: Effect.Effect<ReadonlyArray<EventEnricher>, never, unknown>
  }
}

/** Declares a domain; the literal type is kept, so the registries keep each Layer's own type. */
export const defineDomain = <const D extends DomainDescriptor>(descriptor: D): D => descriptor

/** What each of a union of Layers provides, needs, and can fail with (distributed over the union). */
export type Provided<L> = L extends Layer.Layer<infer A, infer _E, infer _R> ? A : never
export type Needed<L> = L extends Layer.Layer<infer _A, infer _E, infer R> ? R : never
export type Failure<L> = L extends Layer.Layer<infer _A, infer E, infer _R> ? E : never

/** One Layer of all of these: what each provides, needing what each needs (none: the empty Layer). */
export const mergeLayers = <L extends AnyLayer>(layers: ReadonlyArray<L>): Layer.Layer<Provided<L>, Failure<L>, Needed<L>> =>
  // Each element's own type is what the union distributes over; TypeScript cannot follow that through a generic.
  (layers.length === 0 ? Layer.empty : Layer.mergeAll(...(layers as [L, ...Array<L>]))) as Layer.Layer<Provided<L>, Failure<L>, Needed<L>>
