import { defineDomain } from "../Domain.js"
import { tokenOperations } from "./operations.js"
import { SqlSigningKeysRepo } from "./SqlSigningKeysRepo.js"
import { Tokens } from "./Tokens.js"

/** User access tokens (JWT) and the keys that sign them. */
export const tokensDomain = defineDomain({
  name: "tokens",
  operations: tokenOperations,
  services: [Tokens.Default],
  repositories: [SqlSigningKeysRepo],
  tags: [{ name: "auth", description: "User access tokens (JWT) with per-resource permissions." }]
})
