/** The storage conformance suite on the in-memory storage. */
import { MemoryStorage, storageSuite } from "@atrium/core/testing"

await storageSuite("memory", () => MemoryStorage)
