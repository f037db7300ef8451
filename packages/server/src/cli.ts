#!/usr/bin/env node
/** The `atrium` command: serve, worker, migrate, workspace create. */
import * as Schema from "effect/Schema"
import { Email } from "@atrium/core"
import { createRequire } from "node:module"
import { parseArgs, type ParseArgsConfig } from "node:util"
import { createWorkspace, migrate, printMigrations } from "./Commands.js"
import { ENVIRONMENT_VARIABLES, readEnv } from "./Env.js"
import type { Log } from "@atrium/node-http"
import { causeChainMessage, serve, work } from "./Serve.js"
import { storageFromUrl } from "./Storage.js"

/** Each command: its usage line, what it does, and its options (parsed by node:util's parseArgs). */
const COMMANDS = {
  serve: {
    usage: "atrium serve",
    about: "start the server (PORT, HOST, DATABASE_URL); it delivers webhooks and runs background jobs too",
    options: {}
  },
  worker: {
    usage: "atrium worker [--once]",
    about: "deliver webhooks and run background jobs without serving HTTP; --once: what is due now, then exit (for schedulers)",
    options: { once: { type: "boolean" } }
  },
  migrate: {
    usage: "atrium migrate [--print [--dialect sqlite|pg]]",
    about: "apply pending database migrations; --print: print the SQL of every migration, applying nothing (dialect: DATABASE_URL's by default)",
    options: { print: { type: "boolean" }, dialect: { type: "string" } }
  },
  "workspace create": {
    usage: "atrium workspace create --email <email> [--name <name>]",
    about: "create a workspace; prints one JSON object with its credentials",
    options: { email: { type: "string" }, name: { type: "string" } }
  }
} satisfies Record<string, { usage: string; about: string; options: NonNullable<ParseArgsConfig["options"]> }>

type CommandName = keyof typeof COMMANDS

const ENVIRONMENT = `Environment:
${ENVIRONMENT_VARIABLES.map((v) => `  ${v.name.padEnd(31)} ${v.about}`).join("\n")}
`

const USAGE = `Usage:
${Object.values(COMMANDS).map((c) => `  ${c.usage}\n      ${c.about}`).join("\n")}
  atrium --version
  atrium <command> --help

${ENVIRONMENT}`

/** What a usage error adds after its message. */
const usageLine = (name: CommandName) => `Usage: ${COMMANDS[name].usage}  (atrium ${name} --help for more)`

const helpOf = (name: CommandName) => `Usage: ${COMMANDS[name].usage}\n\n${COMMANDS[name].about}\n\n${ENVIRONMENT}`

const version = (): string => (createRequire(import.meta.url)("../package.json") as { version: string }).version

/** A mistake in how the command was called: the message and the usage, exit 2. */
class UsageError extends Error {}

const fail = (message: string, code = 1): never => {
  process.stderr.write(`atrium: ${message}\n`)
  process.exit(code)
}

/**
 * The command's flags, or a UsageError (an unknown flag, a missing value, a stray argument).
 * With --help: prints the command's help and answers undefined, so the command does nothing else.
 */
const flagsOf = <N extends CommandName>(name: N, args: ReadonlyArray<string>) => {
  let values: { help?: boolean } & { [K in keyof (typeof COMMANDS)[N]["options"]]?: (typeof COMMANDS)[N]["options"][K] extends { type: "boolean" } ? boolean : string }
  try {
    values = parseArgs({ args: [...args], options: { ...COMMANDS[name].options, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false }).values as typeof values
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${usageLine(name)}`)
  }
  if (values.help !== true) return values
  process.stdout.write(helpOf(name))
  return undefined
}

/** Runs until the process is told to stop, then closes `running` and exits 0. */
const untilSignal = (running: { readonly close: () => Promise<void>; readonly log: Log }, what: string) => {
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    running.log.info(`atrium: ${signal}, ${what}`)
    running.close().then(() => process.exit(0), (error) => fail(String(error)))
  }
  process.once("SIGTERM", () => stop("SIGTERM"))
  process.once("SIGINT", () => stop("SIGINT"))
  // Started by a package manager (`npx atrium`, `pnpm exec atrium`, `pnpm start`): npm's exec
  // runs us under a shell that dies on SIGTERM without passing it on, and pnpm's run does not
  // pass it either. Our parent gone means whoever started us wants us gone.
  if (process.env["npm_command"] !== undefined) {
    const parent = process.ppid
    setInterval(() => {
      if (process.ppid !== parent) stop("parent exited")
    }, 500).unref()
  }
}

const main = async (args: ReadonlyArray<string>) => {
  const [first, second] = args
  if (first === undefined || first === "help" || first === "--help" || first === "-h") return void process.stdout.write(USAGE)
  if (first === "--version" || first === "-v") return void process.stdout.write(`${version()}\n`)
  const name = first === "workspace" ? `workspace ${second ?? ""}` : first
  if (!(name in COMMANDS)) {
    throw new UsageError(`unknown command "${name.trim()}"; the commands: ${Object.keys(COMMANDS).join(", ")} (atrium --help for more)`)
  }
  const rest = args.slice(name.split(" ").length)
  switch (name as CommandName) {
    case "serve": {
      if (flagsOf("serve", rest) === undefined) return
      return untilSignal(await serve(readEnv()), "shutting down")
    }
    case "worker": {
      const flags = flagsOf("worker", rest)
      if (flags === undefined) return
      if (flags.once === true) {
        const done = await work(readEnv(), { once: true })
        return void process.stdout.write(`atrium: ${done.deliveries} delivery attempt(s), ${done.jobTasks} job task(s), ${done.emails} email(s)\n`)
      }
      return untilSignal(await work(readEnv(), { once: false }), "stopping the worker")
    }
    case "migrate": {
      const flags = flagsOf("migrate", rest)
      if (flags === undefined) return
      if (flags.dialect !== undefined && flags.print !== true) throw new UsageError(`--dialect goes with --print\n${usageLine("migrate")}`)
      const env = readEnv()
      if (flags.print === true) {
        const dialect = flags.dialect ?? (storageFromUrl(env.databaseUrl, env).kind === "postgres" ? "pg" : "sqlite")
        if (dialect !== "sqlite" && dialect !== "pg") throw new UsageError(`--dialect must be sqlite or pg, not "${dialect}"`)
        return void process.stdout.write(await printMigrations(dialect))
      }
      const applied = await migrate(env)
      return void process.stdout.write(applied.length === 0 ? "atrium: database is up to date\n" : `atrium: applied ${applied.join(", ")}\n`)
    }
    case "workspace create": {
      const flags = flagsOf("workspace create", rest)
      if (flags === undefined) return
      if (flags.email === undefined) throw new UsageError(`workspace create needs --email <email>\n${usageLine("workspace create")}`)
      if (!Schema.is(Email)(flags.email)) throw new UsageError(`"${flags.email}" is not a valid email address`)
      const created = await createWorkspace(readEnv(), { ownerEmail: flags.email, ...(flags.name !== undefined && { name: flags.name }) })
      return void process.stdout.write(JSON.stringify(created) + "\n")
    }
  }
}

main(process.argv.slice(2)).catch((error) =>
  error instanceof UsageError ? fail(error.message, 2) : fail(causeChainMessage(error)))
