import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export interface OrganizationRow {
  readonly apiKey: string
  readonly id: string
  readonly name: string
  readonly disabled: boolean
  /** Caller-supplied fields beyond id and name, kept as given. */
  readonly metadata: Readonly<Record<string, unknown>>
  readonly createdAt: number
  readonly updatedAt: number
}

/** What a write of an organization locks first (Transactions.lock): organizations/add merges its metadata, and the disabled switch is written under it too. */
export const organizationLock = (apiKey: string, organizationId: string) => ["organization", apiKey, organizationId] as const

/** Storage port: organizations of an API key. */
export class OrganizationsRepo extends Context.Tag("@atrium/core/OrganizationsRepo")<OrganizationsRepo, {
  /** Inserts, or updates name and metadata of an existing organization (keeping its disabled flag and createdAt). */
  readonly upsert: (row: OrganizationRow) => Effect.Effect<void>
  /** Creates the organization with an empty name unless it exists. */
  readonly ensure: (apiKey: string, id: string, now: number) => Effect.Effect<void>
  readonly find: (apiKey: string, id: string) => Effect.Effect<OrganizationRow | undefined>
  /** The disabled flag, or undefined for an unknown organization. */
  readonly isDisabled: (apiKey: string, id: string) => Effect.Effect<boolean | undefined>
  /** False when the organization does not exist. */
  readonly setDisabled: (apiKey: string, id: string, disabled: boolean, now: number) => Effect.Effect<boolean>
  /** Keyset page ordered by id. */
  readonly list: (
    apiKey: string,
    options: { readonly ids?: ReadonlyArray<string>; readonly after?: string; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<OrganizationRow>>
  /** False when the organization does not exist. */
  readonly delete: (apiKey: string, id: string) => Effect.Effect<boolean>
}>() {}
