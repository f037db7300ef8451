// Time to build one fresh in-memory storage (MemoryStorage from @atrium/core/testing), the cost
// every test that makes its own store pays. Runs on the built package: `pnpm -s build` first.
//   node bench/memory-storage.mjs [path to a built @atrium/core] [builds]
// The first build in a process also loads the WebAssembly module and migrates the template
// database; it is reported apart from the mean of the later ones.
import { createRequire } from "node:module"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"

const core = resolve(process.argv[2] ?? "packages/core")
const builds = Number(process.argv[3] ?? 200)
const require = createRequire(pathToFileURL(core + "/package.json"))
const { Effect, Layer } = { Effect: require("effect/Effect"), Layer: require("effect/Layer") }
const { MemoryStorage } = await import(pathToFileURL(core + "/dist/testing/index.js").href)

const buildOnce = () => Effect.runPromise(Effect.scoped(Layer.build(MemoryStorage)))

let started = performance.now()
await buildOnce()
const first = performance.now() - started
started = performance.now()
for (let i = 0; i < builds; i++) await buildOnce()
const mean = (performance.now() - started) / builds
console.log(JSON.stringify({ core, first: `${first.toFixed(1)} ms`, [`mean of ${builds} later builds`]: `${mean.toFixed(3)} ms` }))
