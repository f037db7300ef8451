// Baseline (a) for bench/comments.mjs: the least a server can do to answer commentannotations/get
// and comments/add from Atrium's own tables: node:http with better-sqlite3 (BENCH_DB) or pg
// (BENCH_PG_URL, a pool of 10 as Atrium's), no auth, no validation, no events.
import { createServer } from "node:http"
import { createRequire } from "node:module"
import {
  COMMENT_ORDER,
  COMMENT_BY_ID,
  commentRecord,
  commentsAddedAnswer,
  INSERT_COMMENT,
  NEXT_SEQ,
  onData,
  REACTION_ORDER,
  sqlite,
  THREAD_BY_ID,
  THREAD_PAGE,
  threadChildren,
  threadsAnswer,
  TOUCH_THREAD,
  writeJson
} from "./answers.mjs"

const apiKey = process.env.BENCH_API_KEY

/**
 * `all(statement, params)`, and `write(f)`: f(query) in one transaction, where `query` answers rows
 * (synchronously on SQLite, where better-sqlite3 transactions must be synchronous).
 */
const database = async () => {
  if (process.env.BENCH_DB) {
    const require = createRequire(new URL("../packages/sql-sqlite/package.json", import.meta.url))
    const Database = require("better-sqlite3")
    const db = new Database(process.env.BENCH_DB)
    db.pragma("journal_mode = WAL")
    db.pragma("synchronous = NORMAL")
    const prepared = new Map()
    const query = (statement, params) => {
      let s = prepared.get(statement)
      if (!s) prepared.set(statement, s = db.prepare(sqlite(statement)))
      return s.reader ? s.all(...params) : (s.run(...params), [])
    }
    return { all: async (statement, params) => query(statement, params), write: async (f) => db.transaction(() => f(query))() }
  }
  const { default: pg } = await import("pg")
  const pool = new pg.Pool({ connectionString: process.env.BENCH_PG_URL, max: 10 })
  await pool.query("SELECT 1")
  return {
    all: async (statement, params) => (await pool.query(statement, params)).rows,
    write: async (f) => {
      const client = await pool.connect()
      try {
        await client.query("BEGIN")
        const result = await f(async (statement, params) => (await client.query(statement, params)).rows)
        await client.query("COMMIT")
        return result
      } catch (error) {
        await client.query("ROLLBACK")
        throw error
      } finally {
        client.release()
      }
    }
  }
}

const db = await database()

const threads = async (data) => {
  const page = await db.all(THREAD_PAGE, [apiKey, data.organizationId, data.documentId, data.pageSize + 1])
  const ids = page.slice(0, data.pageSize).map((t) => t.id)
  const [comments, reactions] = ids.length === 0 ? [[], []] : await Promise.all([
    db.all(threadChildren("comments", COMMENT_ORDER, ids.length), [apiKey, data.organizationId, ...ids]),
    db.all(threadChildren("comment_reactions", REACTION_ORDER, ids.length), [apiKey, data.organizationId, ...ids])
  ])
  return threadsAnswer(page, comments, reactions, data.pageSize)
}

/**
 * Inserts the comment with a free six-digit id and moves the thread's lastUpdated, in one
 * transaction. Written so that on SQLite every step is synchronous (`query` returns rows), and
 * on PostgreSQL each step awaits (`query` returns a promise of rows).
 */
const addComments = (data) => {
  const now = Date.now()
  const input = data.commentData[0]
  const { annotationId, documentId, organizationId } = data
  const sync = process.env.BENCH_DB !== undefined
  const then = (value, f) => (sync ? f(value) : value.then(f))
  return db.write((query) =>
    then(query(THREAD_BY_ID, [apiKey, organizationId, annotationId]), ([thread]) => {
      if (!thread || thread.document_id !== documentId) throw new Error("no such thread")
      // A random six-digit id the thread does not have, asked of the table by id.
      const freeId = () => {
        const id = 100000 + Math.floor(Math.random() * 900000)
        return then(query(COMMENT_BY_ID, [apiKey, organizationId, annotationId, id]), (clash) => clash.length > 0 ? freeId() : id)
      }
      return then(freeId(), (id) =>
        then(query(NEXT_SEQ, [apiKey, organizationId, annotationId]), ([{ next }]) =>
          then(query(INSERT_COMMENT, [apiKey, organizationId, annotationId, id, input.from.userId, now, now, commentRecord(input), Number(next)]), () =>
            then(query(TOUCH_THREAD, [now, apiKey, organizationId, annotationId, now]), () => commentsAddedAnswer([id])))))
    }))
}

createServer((req, res) => {
  if (req.method === "GET") return writeJson(res, { status: "ok" }) // readiness probe
  onData(req, (data) => {
    const reply = req.url === "/v2/commentannotations/get" ? threads(data) : addComments(data)
    reply.then((body) => writeJson(res, body), (error) => {
      console.error(error)
      res.writeHead(500).end()
    })
  })
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"))
