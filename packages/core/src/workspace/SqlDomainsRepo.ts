import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { allRows, mapRows } from "../sql/MapRows.js"
import { DomainsRepo } from "./DomainsRepo.js"

/** An allowed domain's row, as far as it is read. */
interface DomainSqlRow {
  readonly domain: string
}

/** RETURNING lists only the rows really inserted or deleted, in no promised order: keep the caller's. */
const inGivenOrder = (given: ReadonlyArray<string>) => (rows: ReadonlyArray<DomainSqlRow>) => {
  const touched = new Set(rows.map((row) => row.domain))
  return given.filter((domain) => touched.has(domain))
}

export const SqlDomainsRepo = Layer.effect(
  DomainsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      list: (apiKey) =>
        sql`SELECT domain FROM allowed_domains WHERE api_key = ${apiKey} ORDER BY created_at, domain`.pipe(
          allRows((row: DomainSqlRow) => row.domain)
        ),
      add: (apiKey, domains, now) =>
        domains.length === 0 ? Effect.succeed([]) : sql`INSERT INTO allowed_domains ${
          sql.insert(domains.map((domain) => ({ api_key: apiKey, domain, created_at: now })))
        } ON CONFLICT (api_key, domain) DO NOTHING RETURNING domain`.pipe(mapRows(inGivenOrder(domains))),
      remove: (apiKey, domains) =>
        domains.length === 0 ? Effect.succeed([]) : sql`DELETE FROM allowed_domains WHERE ${
          sql.and([sql`api_key = ${apiKey}`, sql.in("domain", domains)])
        } RETURNING domain`.pipe(mapRows(inGivenOrder(domains))),
      // Any key's: by the domain alone (index allowed_domains_domain, migration 0016).
      includesAny: (apiKey, domains) =>
        domains.length === 0 ? Effect.succeed(false) : sql`SELECT 1 AS found FROM allowed_domains WHERE ${
          apiKey === undefined ? sql.in("domain", domains) : sql.and([sql`api_key = ${apiKey}`, sql.in("domain", domains)])
        } LIMIT 1`.pipe(mapRows((rows) => rows.length > 0))
    }
  })
)
