/** @atrium/core/testing: in-memory storage, test doubles for the ports, and the storage conformance suite. */
export { CapturedMail } from "../ports/Mailer.js"
export { MemoryStorage } from "./MemoryStorage.js"
export * from "./Harness.js"
export * from "./HttpScenarios.js"
export { storageSuite } from "./StorageSuite.js"
export { type ListCap, listCaps } from "../protocol/ListCaps.js"
