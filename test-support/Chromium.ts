/**
 * Debian's Chromium for the browser tests, driven by playwright-core. `apt-get install chromium`
 * (.ci/run does), or CHROMIUM_PATH. Without it a test file is skipped with a warning, except in CI,
 * where a missing browser is an error rather than a silently smaller suite.
 */
import { existsSync } from "node:fs"
import { type Browser, chromium } from "playwright-core"

export const chromiumPath = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium"

/** Whether `file`'s browser tests can run here; warns (or, in CI, throws) when they cannot. */
export const hasChromium = (file: string): boolean => {
  if (existsSync(chromiumPath)) return true
  const problem = `no Chromium at ${chromiumPath}: apt-get install chromium, or set CHROMIUM_PATH`
  if (process.env["CI"]) throw new Error(problem)
  console.warn(`${file} skipped: ${problem}`)
  return false
}

/**
 * Headless, with the flags a closed network needs: no background connections to Google's services;
 * `args` besides (e.g. `--host-resolver-rules=MAP *.test 127.0.0.1` for pages on other origins).
 */
export const launchChromium = (args: ReadonlyArray<string> = []): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", ...args]
  })
