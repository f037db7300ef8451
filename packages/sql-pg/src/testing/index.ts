/** @atrium/sql-pg/testing: a fresh PostgreSQL database for each test run. */
export { testDatabase, type TestDatabase } from "./TestDatabase.js"
