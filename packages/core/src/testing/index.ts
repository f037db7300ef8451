/** @atrium/core/testing: in-memory storage and test doubles for the ports. */
export { CapturedMail } from "../ports/Mailer.js"
export { MemoryDb } from "./memory/MemoryDb.js"
export { MemoryStorage } from "./MemoryStorage.js"
export * from "./Harness.js"
