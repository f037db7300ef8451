// Loaded into a bench's server (`node --expose-gc --import ./bench/memory-probe.mjs …`): on SIGUSR2
// it collects garbage and writes `process.memoryUsage()` to BENCH_MEMORY_FILE, so a bench reads the
// heap of a server in another process, not only its RSS.
import { renameSync, writeFileSync } from "node:fs"

process.on("SIGUSR2", () => {
  globalThis.gc()
  globalThis.gc()
  const file = process.env.BENCH_MEMORY_FILE
  writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()))
  renameSync(`${file}.tmp`, file) // whole or absent for the reader
})
