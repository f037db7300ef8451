// The test projects: every package and example has its own vitest.config.ts.
// vitest.config.ts reads this list into `test.projects` (vitest 3.2 deprecates
// workspace files, and vitest 4 drops them), so this file stays the one place
// that says which projects exist.
export default ["packages/*", "examples/*"]
