/**
 * The packages as a user gets them: packed tarballs installed into a fresh project outside the
 * workspace, with npm (after `npm i effect@^3`) and with pnpm, in an app that already depends on `effect`. The README's
 * embedding snippets run there as written (TypeScript stripped, port and file names filled in),
 * with one copy of `effect` in the tree; `atrium serve` runs from the installed bin; publint and
 * arethetypeswrong (profile node16; esm-only for @atrium/browser, an ES module only) find nothing
 * in any tarball. Beside Effect 4, every entry refuses at import with a message naming both
 * versions (scripts/effect-guard.ts). Needs `pnpm build` first and the npm registry for the install (about a minute
 * with npm, which compiles better-sqlite3).
 */
import { testDatabase, type TestDatabase } from "@atrium/sql-pg/testing"
import { execFile, spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import ts from "typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { exerciseAtrium } from "../../../test-support/ExampleSmoke.js"
import { freePort, killServerProcesses, startServerProcess } from "../../../test-support/ServerProcess.js"

const execFileAsync = promisify(execFile)
const root = join(__dirname, "..", "..", "..")
const packageDirs = readdirSync(join(root, "packages")).filter((dir) => statSync(join(root, "packages", dir)).isDirectory())
const work = mkdtempSync(join(tmpdir(), "atrium-tarballs-"))
const packs = join(work, "packs")
const tarballs: Record<string, string> = {}
let database: TestDatabase

/** Runs a command to its end without blocking the test worker (an install takes a minute); resolves with its stdout. */
const run = async (command: string, args: ReadonlyArray<string>, cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  (await execFileAsync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 64 << 20 })).stdout

beforeAll(async () => {
  mkdirSync(packs)
  for (const dir of packageDirs) {
    const name = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")).name as string
    const before = new Set(readdirSync(packs))
    await run("pnpm", ["pack", "--pack-destination", packs], join(root, "packages", dir))
    tarballs[name] = join(packs, readdirSync(packs).find((file) => !before.has(file))!)
  }
  database = await testDatabase()
}, 120_000)

afterAll(async () => {
  killServerProcesses()
  await database?.drop()
  rmSync(work, { recursive: true, force: true })
})

const tarEntries = async (tarball: string) => (await run("tar", ["tzf", tarball], work)).split("\n")
const tarFile = (tarball: string, path: string) => run("tar", ["xzf", tarball, "-O", path], work)

describe("each tarball", () => {
  it("carries its README, the LICENSE, and says where it comes from", async () => {
    expect(Object.keys(tarballs).sort()).toEqual(packageDirs.map((dir) => `@atrium/${dir}`).sort())
    for (const [name, tarball] of Object.entries(tarballs)) {
      const entries = await tarEntries(tarball)
      expect(entries, name).toEqual(expect.arrayContaining(["package/README.md", "package/LICENSE", "package/package.json"]))
      expect(await tarFile(tarball, "package/LICENSE")).toBe(readFileSync(join(root, "LICENSE"), "utf8"))
      expect(await tarFile(tarball, "package/README.md")).toContain(`# ${name}`)
      const manifest = JSON.parse(await tarFile(tarball, "package/package.json"))
      expect(manifest.repository, name).toMatchObject({ type: "git", directory: expect.stringMatching(/^packages\//) })
      expect(manifest.keywords, name).toContain("atrium")
      expect(manifest.license).toBe("MIT")
      // Packed manifests name versions, not the workspace protocol.
      expect(JSON.stringify(manifest), name).not.toContain("workspace:")
    }
  })

  it("declares Effect as a peer wherever it imports it, and the adapters @atrium/core", async () => {
    for (const [name, tarball] of Object.entries(tarballs)) {
      const manifest = JSON.parse(await tarFile(tarball, "package/package.json"))
      const dependencies = Object.keys(manifest.dependencies ?? {})
      for (const shared of ["effect", "@effect/platform", "@effect/sql", "@effect/experimental"]) {
        expect(dependencies, `${name} bundles its own ${shared}`).not.toContain(shared)
      }
      // The clients talk HTTP only: they need neither Effect nor the core.
      if (name === "@atrium/client" || name === "@atrium/browser") expect(manifest.dependencies ?? {}, name).toEqual({})
      else if (name !== "@atrium/core" && name !== "@atrium/server") {
        expect(manifest.peerDependencies?.["@atrium/core"], name).toBe("^0.1.0")
        expect(dependencies, name).not.toContain("@atrium/core")
      }
    }
  })

  it("is clean under publint and arethetypeswrong (--profile node16; esm-only for @atrium/browser)", async () => {
    const bin = (tool: string) => join(root, "node_modules", ".bin", tool)
    for (const [name, tarball] of Object.entries(tarballs)) {
      // Both exit non-zero on any finding; the rejection carries their output.
      await expect(run(bin("publint"), ["--strict", tarball], work), name).resolves.toContain("All good!")
      // @atrium/browser is an ES module only (browsers and bundlers): CommonJS is not asked of it.
      const profile = name === "@atrium/browser" ? "esm-only" : "node16"
      await expect(run(bin("attw"), [tarball, "--profile", profile, "--format", "ascii"], work), name).resolves.toBeTypeOf("string")
    }
  }, 120_000)

  it("gives @atrium/browser as one module that imports nothing, its types included", async () => {
    const tarball = tarballs["@atrium/browser"]!
    for (const file of ["package/dist/index.js", "package/dist/index.d.ts"]) {
      expect(await tarFile(tarball, file), file).not.toMatch(/^\s*(import|export)\b[^;]*\bfrom\s*["']|\bimport\s*\(|\brequire\s*\(/m)
    }
  })
})

/** The README's embedding snippets, by the package that mounts Atrium. */
const readmeSnippets = () => {
  const readme = readFileSync(join(root, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("## Embed it"), readme.indexOf("\n## ", readme.indexOf("## Embed it") + 1))
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!)
  const find = (marker: string) => {
    const found = blocks.filter((block) => block.includes(marker))
    expect(found, marker).toHaveLength(1)
    return ts.transpileModule(found[0]!, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText
  }
  expect(blocks).toHaveLength(5)
  return {
    nodeHttp: find(`from "@atrium/node-http"`),
    express: find(`from "@atrium/express"`),
    fastify: find(`from "@atrium/fastify"`),
    lambda: find(`from "@atrium/lambda"`),
    direct: find(`from "@atrium/core/testing"`)
  }
}

/** The README's one example of @atrium/client (beside the curl example), as JavaScript. */
const clientSnippet = () => {
  const blocks = [...readFileSync(join(root, "README.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!)
  const found = blocks.filter((block) => block.includes(`from "@atrium/client"`))
  expect(found).toHaveLength(1)
  return ts.transpileModule(found[0]!, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText
}

/** A new workspace over HTTP: its first API key and auth token. */
const createWorkspace = async (url: string, ownerEmail: string) => {
  const answer = await fetch(`${url}/v2/workspace/create`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ data: { ownerEmail } })
  })
  const [apiKey, entry] = Object.entries((await answer.json()).result.data.apiKeyList)[0] as [string, { authToken: string }]
  return { apiKey, authToken: entry.authToken }
}

/** Whether something accepts a new connection on the port. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => resolve(false))
  })

/** Runs `node file` in `cwd` until `url` answers, then hands over; kills it afterwards. */
const whileServing = async (cwd: string, file: string, url: string, use: () => Promise<void>) => {
  const child = spawn(process.execPath, [file], { cwd, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  try {
    for (let attempt = 0; ; attempt++) {
      if (child.exitCode !== null) throw new Error(`${file} exited with ${child.exitCode}: ${output}`)
      const up = await fetch(url).then(() => true, () => false)
      if (up) break
      if (attempt > 200) throw new Error(`${file} never answered at ${url}: ${output}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await use()
  } finally {
    child.kill("SIGKILL")
  }
}

/** Every copy of the `effect` package installed under `project` (npm's nested trees and pnpm's store), by real path. */
const effectCopies = (project: string) => {
  const found = new Set<string>()
  const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : [])
  const visitPackage = (path: string, isLink: boolean) => {
    try {
      if (JSON.parse(readFileSync(join(path, "package.json"), "utf8")).name === "effect") found.add(realpathSync(path))
    } catch { /* not a package */ }
    // A link points into a tree walked on its own (pnpm's store): following it could loop.
    if (!isLink) walkModules(join(path, "node_modules"))
  }
  const walkModules = (modules: string): void => {
    for (const entry of entries(modules)) {
      const path = join(modules, entry.name)
      if (entry.name === ".pnpm") for (const id of entries(path)) walkModules(join(path, id.name, "node_modules"))
      else if (entry.name.startsWith("@")) for (const scoped of entries(path)) visitPackage(join(path, scoped.name), scoped.isSymbolicLink())
      else if (entry.isDirectory() || entry.isSymbolicLink()) visitPackage(path, entry.isSymbolicLink())
    }
  }
  walkModules(join(project, "node_modules"))
  return [...found]
}

/** The environment of a user's shell: none of the settings pnpm hands the workspace's scripts (node-gyp's header path kept). */
const userEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key))),
  ...(process.env["npm_config_nodedir"] ? { npm_config_nodedir: process.env["npm_config_nodedir"] } : {})
})

const NPM_FLAGS = ["--no-audit", "--no-fund", "--loglevel=error"]

/** The host app's dependencies besides effect and Atrium. */
const HOST_DEPENDENCIES = { express: "^5.0.0", fastify: "^5.0.0", "sql.js": "^1.13.0" }

/** A host app's package.json with `dependencies` (and the tarballs, when asked) and the overrides that point the tarballs' names for each other at the tarballs. */
const writeHostApp = (project: string, dependencies: Record<string, string> = {}, withTarballs = false) => {
  const files = Object.fromEntries(Object.entries(tarballs).map(([name, tarball]) => [name, `file:${tarball}`]))
  mkdirSync(project)
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({
      name: "host-app",
      private: true,
      type: "module",
      dependencies: withTarballs ? { ...dependencies, ...files } : dependencies,
      // The tarballs name each other by version; point those at the tarballs, not the registry.
      overrides: files,
      pnpm: { overrides: files, onlyBuiltDependencies: ["better-sqlite3"] }
    }, null, 2)
  )
  return files
}

/** Adds `dependencies` to the app's package.json (npm refuses an override that differs from a direct dependency's spec, so the tarballs go in as written there). */
const addDependencies = (project: string, dependencies: Record<string, string>) => {
  const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"))
  writeFileSync(join(project, "package.json"), JSON.stringify({ ...manifest, dependencies: { ...manifest.dependencies, ...dependencies } }, null, 2))
}

const managers = [
  {
    name: "npm",
    // As a new user does it: `npm i effect@^3` first, as the README's install line says, then Atrium beside it.
    setUp: async (project: string) => {
      const files = writeHostApp(project)
      await run("npm", ["install", "effect@^3", ...NPM_FLAGS], project, userEnv())
      addDependencies(project, { ...files, ...HOST_DEPENDENCIES })
      await run("npm", ["install", ...NPM_FLAGS], project, userEnv())
    },
    bin: ["npx", ["--no-install", "atrium"]] as const
  },
  {
    name: "pnpm",
    // An app that already depends on effect, all installed at once. A fresh project has no
    // lockfile to freeze (pnpm freezes it by default when CI is set).
    setUp: async (project: string) => {
      writeHostApp(project, { effect: "3.22.4", ...HOST_DEPENDENCIES }, true)
      await run("pnpm", ["install", "--no-frozen-lockfile", "--reporter=silent"], project, userEnv())
    },
    bin: ["pnpm", ["exec", "atrium"]] as const
  }
]

describe.each(managers)("installed with $name into an app that already has effect", (manager) => {
  const project = join(work, manager.name)

  beforeAll(() => manager.setUp(project), 300_000)

  it("has one copy of effect", () => {
    expect(effectCopies(project)).toHaveLength(1)
  })

  it("runs every README embedding snippet", async () => {
    const snippets = readmeSnippets()
    for (const adapter of ["nodeHttp", "express", "fastify"] as const) {
      const port = await freePort()
      const file = `${adapter}.mjs`
      writeFileSync(join(project, file), snippets[adapter].replaceAll("3000", String(port)).replaceAll("atrium.db", `${adapter}.db`))
      await whileServing(project, file, `http://localhost:${port}/`, () => exerciseAtrium(`http://localhost:${port}/collab`))
    }

    writeFileSync(join(project, "direct.mjs"), snippets.direct + "\nconsole.log(JSON.stringify(page))\n")
    // A service called through the Layer gives its domain value: the page of documents (none yet), no envelope.
    expect(JSON.parse(await run(process.execPath, ["direct.mjs"], project))).toEqual({ items: [] })

    writeFileSync(join(project, "lambda.mjs"), snippets.lambda)
    writeFileSync(
      join(project, "invoke.mjs"),
      `import { handler } from "./lambda.mjs"
const call = async (path, data, headers = {}) => {
  const answer = await handler({ version: "2.0", rawPath: path, rawQueryString: "", headers: { "content-type": "application/json", ...headers },
    requestContext: { http: { method: "POST", path, sourceIp: "127.0.0.1" } }, body: JSON.stringify({ data }), isBase64Encoded: false })
  return JSON.parse(answer.body)
}
const created = (await call("/v2/workspace/create", { ownerEmail: "${manager.name}@example.com" })).result.data
const [apiKey, { authToken }] = Object.entries(created.apiKeyList)[0]
console.log(JSON.stringify(await call("/v2/organizations/documents/get", { organizationId: "o" }, { "x-service-api-key": apiKey, "x-service-auth-token": authToken })))
process.exit(0)
`
    )
    const invoked = await run(process.execPath, ["invoke.mjs"], project, { ...process.env, DATABASE_URL: database.url })
    expect(JSON.parse(invoked)).toEqual({ result: { status: "success", message: expect.any(String), data: [] } })
  }, 120_000)

  it("serves from the installed atrium command", async () => {
    const [command, args] = manager.bin
    const server = await startServerProcess([...args, "serve"], {
      command,
      cwd: project,
      env: { ...userEnv(), PORT: "0", DATABASE_URL: `sqlite:${join(project, "served.db")}` }
    })
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    // The docs page's script ships in the tarball's dist/docs.
    expect((await fetch(`${server.url}/docs/redoc.standalone.js`)).status).toBe(200)
    await exerciseAtrium(server.url)
    // The README's typed-client example, as written but for the server's address.
    const { apiKey, authToken } = await createWorkspace(server.url, `${manager.name}-client@example.com`)
    writeFileSync(join(project, "client.mjs"), clientSnippet().replaceAll("http://localhost:8080", server.url))
    const listed = await run(process.execPath, ["client.mjs"], project, { ...userEnv(), API_KEY: apiKey, AUTH_TOKEN: authToken })
    expect(listed.trim()).toBe("[]")
    // npx and pnpm exec pass SIGTERM on to the server, then end by the same signal.
    await server.stop()
    const { port } = new URL(server.url)
    await expect.poll(() => accepts(Number(port)), { timeout: 10_000 }).toBe(false)
  }, 60_000)
})

describe("installed beside Effect 4", () => {
  const project = join(work, "effect4")

  beforeAll(async () => {
    const files = writeHostApp(project)
    // `npm i effect` gives Effect 4 now; npm then refuses Atrium (ERESOLVE, its peer is effect@^3)
    // unless told to ignore peers, and pnpm only warns: either way Effect 4 is what Atrium finds.
    await run("npm", ["install", "effect@^4", ...NPM_FLAGS], project, userEnv())
    const wanted = ["@atrium/core", "@atrium/node-http", "@atrium/express", "@atrium/sql-sqlite"].map((name) => [name, files[name]!])
    addDependencies(project, { ...Object.fromEntries(wanted), express: HOST_DEPENDENCIES.express })
    await run("npm", ["install", "--legacy-peer-deps", ...NPM_FLAGS], project, userEnv())
  }, 300_000)

  /** Runs node with `args` in the app: its exit code and what it printed on stderr. */
  const runNode = async (args: ReadonlyArray<string>) => {
    try {
      await run(process.execPath, args, project)
      return { code: 0, stderr: "" }
    } catch (error) {
      const failed = error as { code: number; stderr: string }
      return { code: failed.code, stderr: failed.stderr }
    }
  }

  it("refuses at import, naming the Effect it found and the one it needs, from ES modules and CommonJS alike", async () => {
    const found = JSON.parse(readFileSync(join(project, "node_modules", "effect", "package.json"), "utf8")).version as string
    expect(found).toMatch(/^4\./)
    for (const [name, args] of [
      ["@atrium/core", ["--input-type=module", "-e", `import "@atrium/core"`]],
      ["@atrium/core", ["-e", `require("@atrium/core")`]],
      ["@atrium/sql-sqlite", ["--input-type=module", "-e", `import { SqliteStorage } from "@atrium/sql-sqlite"`]],
      // Express's adapter imports no Effect itself: the packages it imports say it.
      ["@atrium/(node-http|core)", ["--input-type=module", "-e", `import { atrium } from "@atrium/express"`]]
    ] as const) {
      const answer = await runNode(args)
      expect(answer.code, args.join(" ")).toBe(1)
      expect(answer.stderr, args.join(" ")).toMatch(new RegExp(`${name} needs Effect 3 \\(its peer dependency effect@\\^3[.0-9]*\\), but effect@${found.replaceAll(".", "\\.")} is installed here: install effect@\\^3`))
      // Not the module-not-found error Effect 4 gave before.
      expect(answer.stderr, args.join(" ")).not.toContain("Cannot find module")
    }
  }, 60_000)
})
