import { defineProject } from "vitest/config"

/**
 * Shared project settings. Tests run against the TypeScript sources: the
 * workspace packages export them under the `@atrium/source` condition.
 */
export const project = (name: string) =>
  defineProject({
    resolve: { conditions: ["@atrium/source", "module", "node", "development|production"] },
    ssr: { resolve: { conditions: ["@atrium/source", "node", "development|production"] } },
    test: {
      name,
      include: ["test/**/*.test.ts"],
      testTimeout: 30_000,
      hookTimeout: 60_000
    }
  })
