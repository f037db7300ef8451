/**
 * The storage conformance suite: the cases every storage Layer must pass, run by
 * the in-memory, SQLite and PostgreSQL packages alike, against the ports of
 * `StorageServices` (no operation, no HTTP). Each case works under API keys of its
 * own, so the cases share one store; the few tables that are not per API key
 * (signing keys, jobs' and deliveries' claim order) are touched by one case each.
 *
 * The cases live in `storage/`: one file per domain of the descriptor list (src/domains.ts),
 * the storage's own ports (`infrastructure.ts`) and the cases over every domain at once
 * (`acrossDomains.ts`). A domain without its file fails the typecheck here, and the suite.
 */
import type * as Layer from "effect/Layer"
import { type DomainName, domains } from "../domains.js"
import type { StorageServices } from "../Storage.js"
import { cases as access } from "./storage/access.js"
import { cases as acrossDomains } from "./storage/acrossDomains.js"
import { cases as activities } from "./storage/activities.js"
import { cases as agents } from "./storage/agents.js"
import { cases as comments } from "./storage/comments.js"
import { cases as deliveries } from "./storage/deliveries.js"
import { cases as documents } from "./storage/documents.js"
import { cases as emails } from "./storage/emails.js"
import type { StorageCases } from "./storage/fixtures.js"
import { cases as folders } from "./storage/folders.js"
import { cases as infrastructure } from "./storage/infrastructure.js"
import { cases as jobs } from "./storage/jobs.js"
import { cases as judgments } from "./storage/judgments.js"
import { cases as livestate } from "./storage/livestate.js"
import { cases as notifications } from "./storage/notifications.js"
import { cases as organizations } from "./storage/organizations.js"
import { cases as presence } from "./storage/presence.js"
import { cases as realtime } from "./storage/realtime.js"
import { cases as tokens } from "./storage/tokens.js"
import { cases as users } from "./storage/users.js"
import { cases as webhooks } from "./storage/webhooks.js"
import { cases as workspace } from "./storage/workspace.js"

/** Each domain's repositories' cases, by the domain's name. */
const byDomain: Readonly<Record<DomainName, StorageCases>> = {
  workspace,
  organizations,
  documents,
  users,
  presence,
  notifications,
  jobs,
  folders,
  activities,
  comments,
  webhooks,
  deliveries,
  tokens,
  agents,
  judgments,
  access,
  realtime,
  livestate,
  emails
}

/**
 * Registers the suite under `describe("storage conformance: <name>")`. `makeLayer`
 * builds a fresh, empty store (called once, before the cases). Await it at the top
 * of the test file: `@effect/vitest` is loaded here, on demand, so that
 * `@atrium/core/testing` stays usable outside a test runner.
 */
export const storageSuite = async (name: string, makeLayer: () => Layer.Layer<StorageServices, unknown>): Promise<void> => {
  const { describe, expect, layer } = await import("@effect/vitest")
  layer(makeLayer(), { excludeTestServices: true, timeout: "60 seconds" })(`storage conformance: ${name}`, (it) => {
    describe("the storage's own ports", () => infrastructure(it, expect))
    describe("across domains", () => acrossDomains(it, expect))
    for (const domain of domains) {
      const cases = byDomain[domain.name] as StorageCases | undefined
      if (cases === undefined) throw new Error(`No storage cases for the domain ${domain.name} (testing/storage/${domain.name}.ts)`)
      describe(domain.name, () => cases(it, expect))
    }
  })
}
