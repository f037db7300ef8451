import { defineConfig, type Options } from "tsup"

/** Every package builds to ESM + CJS + .d.ts from the same entry list. */
export const build = (entry: Record<string, string>, extra: Partial<Options> = {}) =>
  defineConfig({
    entry,
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
    outDir: "dist",
    splitting: false,
    ...extra
  })
