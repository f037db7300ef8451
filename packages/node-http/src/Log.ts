/**
 * One log for a Node host of Atrium: every line (start-up, requests, jobs, webhook attempts,
 * Atrium's own Effect logs) goes through here, filtered by level and written as text or as one
 * JSON object per line. `atrium serve` logs through it (LOG_LEVEL, LOG_FORMAT); an embedded host
 * gets the same lines with `createAtrium({ logger: log.effectLogger })` and
 * `toNodeListener(atrium, { onResponse: log.onResponse })` (issue 27: embedded logs were Effect's
 * default format). Lines are written once per turn of the event loop: under load that is one
 * write for many requests rather than one each.
 */
import type { AtriumRequest, AtriumResponse } from "@atrium/core"
import * as Cause from "effect/Cause"
import * as HashMap from "effect/HashMap"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const
export type Level = typeof LOG_LEVELS[number]
export const LOG_FORMATS = ["text", "json"] as const
export type Format = typeof LOG_FORMATS[number]

export interface LogSettings {
  readonly level: Level
  readonly format: Format
}

export const defaultLogSettings: LogSettings = { level: "info", format: "text" }

type Fields = Readonly<Record<string, unknown>>

export interface Log {
  readonly debug: (message: string, fields?: Fields) => void
  readonly info: (message: string, fields?: Fields) => void
  readonly warn: (message: string, fields?: Fields) => void
  readonly error: (message: string, fields?: Fields) => void
  /**
   * One answered request, at info: `GET /path 200 1.2ms requestId=…` as text; in JSON its method,
   * path, status, duration and request id are fields of their own (for log queries), beside `msg`.
   */
  readonly request: (entry: RequestEntry) => void
  /** `toNodeListener`'s `onResponse`: a request line per answer, with the request's `x-request-id` if it came with one. */
  readonly onResponse: (request: AtriumRequest, response: AtriumResponse, durationMillis: number) => void
  /** Effect's logger replaced by this one, at this level: for `createAtrium({ logger })`. */
  readonly effectLogger: Layer.Layer<never>
  /** Writes what is pending now (before exit). */
  readonly flush: () => void
}

export interface RequestEntry {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
  readonly requestId: string
}

const rank: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 }

const levelOf = (level: LogLevel.LogLevel): Level =>
  level._tag === "Debug" || level._tag === "Trace" || level._tag === "All" ? "debug"
  : level._tag === "Info" ? "info"
  : level._tag === "Warning" ? "warn"
  : "error"

const effectLevel: Record<Level, LogLevel.LogLevel> = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warn: LogLevel.Warning,
  error: LogLevel.Error
}

/** ` key=value` pairs for the text format; strings with spaces quoted. */
const textFields = (fields: Fields) =>
  Object.entries(fields).map(([key, value]) => {
    const text = typeof value === "string" ? value : JSON.stringify(value)
    return ` ${key}=${/[\s"=]/.test(text) ? JSON.stringify(text) : text}`
  }).join("")

/** Log lines to `sink` as they come, or (no sink) to stdout, batched. */
export const makeLog = (settings: LogSettings = defaultLogSettings, sink?: (line: string) => void): Log => {
  let pending: Array<string> = []
  const flush = () => {
    if (pending.length === 0) return
    const text = pending.join("\n") + "\n"
    pending = []
    process.stdout.write(text)
  }
  /** `jsonOnly`: fields the text line already says in its message, written only as JSON fields. */
  const line = (level: Level, message: string, fields: Fields = {}, jsonOnly?: Fields) => {
    if (rank[level] < rank[settings.level]) return
    const time = new Date().toISOString()
    const text = settings.format === "json"
      ? JSON.stringify({ time, level, msg: message, ...jsonOnly, ...fields })
      : `${time} ${level.toUpperCase().padEnd(5)} ${message}${textFields(fields)}`
    if (sink) sink(text)
    else if (pending.push(text) === 1) setImmediate(flush)
  }

  const request = ({ durationMs, method, path, requestId, status }: RequestEntry) => {
    const duration = Math.round(durationMs * 10) / 10
    line("info", settings.format === "json" ? `${method} ${path} ${status}` : `${method} ${path} ${status} ${duration.toFixed(1)}ms`, requestId === "" ? {} : { requestId }, {
      method,
      path,
      status,
      durationMs: duration
    })
  }

  const logger = Logger.make(({ annotations, cause, logLevel, message }) => {
    const fields: Record<string, unknown> = {}
    for (const [key, value] of HashMap.toEntries(annotations)) fields[key] = value
    if (!Cause.isEmpty(cause)) fields["cause"] = Cause.pretty(cause)
    const text = (Array.isArray(message) ? message : [message]).map((part) => typeof part === "string" ? part : JSON.stringify(part)).join(" ")
    line(levelOf(logLevel), text, fields)
  })

  return {
    debug: (message, fields) => line("debug", message, fields),
    info: (message, fields) => line("info", message, fields),
    warn: (message, fields) => line("warn", message, fields),
    error: (message, fields) => line("error", message, fields),
    request,
    onResponse: (req, res, durationMs) => {
      const given = req.headers["x-request-id"]
      request({ method: req.method, path: req.path, status: res.status, durationMs, requestId: typeof given === "string" ? given : "" })
    },
    effectLogger: Layer.merge(Logger.replace(Logger.defaultLogger, logger), Logger.minimumLogLevel(effectLevel[settings.level])),
    flush
  }
}
