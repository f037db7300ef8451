import * as Migrator from "@effect/sql/Migrator"
import core from "./0001_core.js"

/**
 * Every SQLite migration, imported statically so that bundles (Lambda, single
 * files) carry them. Ids are the numeric prefixes; never renumber a released one.
 */
export const migrations = Migrator.fromRecord({
  "0001_core": core
})
