import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** Storage port for server-wide secrets (the page-token key), shared by every server on one database. */
export class ServerSecretsRepo extends Context.Tag("@atrium/core/ServerSecretsRepo")<ServerSecretsRepo, {
  /** The stored value of `name`; stores `candidate` first when there is none (the first writer wins). */
  readonly getOrCreate: (name: string, candidate: string) => Effect.Effect<string>
}>() {}
