import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  // No operation yet (docs/realtime.md): the log is written only while a server follows the key, which no call does.
  seed: async () => ({}),
  // Nothing of A's is read back through an operation until the realtime endpoint lands.
  reads: () => []
}
