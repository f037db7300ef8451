import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  // Access has no operation of its own yet (issue 23): its facts are the organizations', documents',
  // folders' and users' rows, which their domains seed and read.
  seed: async () => ({}),
  reads: () => []
}
