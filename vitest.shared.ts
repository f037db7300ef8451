import { defineProject } from "vitest/config"

/** Shared project settings: tests run against the TypeScript sources (the `@atrium/source` export condition). */
export const project = (name: string) =>
  defineProject({
    resolve: { conditions: ["@atrium/source"] },
    test: {
      name,
      include: ["test/**/*.test.ts"],
      testTimeout: 30_000,
      hookTimeout: 60_000
    }
  })
