// Notifications benchmark (issue 26): `pnpm -s build && node bench/notifications.mjs [--storage sqlite|postgres]`
//   [--duration 10] [--warmup 3] [--connections 10] [--threads 1000] [--rounds 3] [--emails 10000]
// Part 1: comments/add of one comment mentioning 10 users (each with an email address), with
// notifications on (`triggerNotification: true`: one notification to 10 recipients, its
// `notification.add` event, 10 queued emails, and the server's email worker sending them to the
// SMTP server below) against the same request with them off, alternating rounds on one
// `atrium serve` setup, and prints the medians and on/off (target >= 0.7).
// Part 2: --emails notifications' emails through the digest path: notifications/add to 100
// users, 10 recipients a call, with user digests (window 10 s, 10 emails each); the time from the
// first add until the SMTP server has every notification in a digest, the emails and
// notifications a second, and the server's peak RSS.
// The SMTP server is `smtp-server` in this process, counting what it receives (not pinned).
import { join } from "node:path"
import { parseArgs } from "node:util"
import { SMTPServer } from "smtp-server"
import { benchDatabase, cli, createWorkspace, median, peakRss, poster, RUN_OPTIONS, seedThreads, sleep, startPinned as start, stopServer as stop, wrk as runWrk } from "./lib.mjs"

const { values: args } = parseArgs({
  options: {
    ...RUN_OPTIONS,
    threads: { type: "string", default: "1000" },
    rounds: { type: "string", default: "3" },
    emails: { type: "string", default: "10000" },
    // off: no ATRIUM_SMTP_URL in part 1 (notifications made, nothing mailed), to see what email costs.
    email: { type: "string", default: "on" }
  }
})

// --- the SMTP server: counts messages and the notifications they carry ---------------------
let messages = 0
let notified = 0
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, _session, callback) {
    let text = ""
    stream.on("data", (chunk) => (text += chunk))
    stream.on("end", () => {
      messages++
      // A digest's subject says how many it carries; a single email carries one.
      const digest = /^Subject: (\d+) new notifications/m.exec(text)
      notified += digest ? Number(digest[1]) : 1
      callback()
    })
  }
})
// A server stopped mid-session resets its connections: not a failure of the bench.
smtp.on("error", (error) => { if (error.code !== "ECONNRESET") console.error("SMTP server:", error.message) })
await new Promise((resolve) => smtp.listen(0, "127.0.0.1", resolve))
const smtpUrl = `smtp://127.0.0.1:${smtp.server.address().port}`

const database = await benchDatabase(args.storage, { pgAdminUrl: args["pg-url"] })
const env = { ...process.env, DATABASE_URL: database.url, ATRIUM_SMTP_URL: smtpUrl, ATRIUM_EMAIL_POLL_MS: "200" }
const partOneEnv = args.email === "off" ? { ...env, ATRIUM_SMTP_URL: "" } : env
const organizationId = "org-bench"
const documentId = "doc-bench"
const threadCount = Number(args.threads)
const users = Array.from({ length: 100 }, (_, i) => ({ userId: `user-${i}`, name: `User ${i}`, email: `user${i}@bench.example` }))

try {
  const creds = createWorkspace(env)
  const post = poster(creds)
  const seeding = await start(process.execPath, [cli, "serve"], env)
  await post(seeding.url, "/v2/users/add", { organizationId, createOrganization: true, users: users.slice(0, 100) })
  await seedThreads((path, data) => post(seeding.url, path, data), { organizationId, documentId, threadCount })
  await stop(seeding)
  await database.analyze()

  // --- part 1: comments/add mentioning 10, notifications on and off ------------------------
  const mentioning = (notify) => ({
    organizationId,
    documentId,
    annotationId: "thread-%N%",
    commentData: [{
      commentText: "@User 1 … @User 10: please review before Friday.",
      from: { userId: "user-0", name: "User 0" },
      taggedUserContacts: users.slice(1, 11).map((user) => ({ userId: user.userId, text: `@${user.name}` })),
      triggerNotification: notify
    }]
  })
  const variants = [{ name: "notifications off", data: mentioning(false) }, { name: "notifications on (inbox, event, 10 emails)", data: mentioning(true) }]
  /** A server on the database until the SMTP server has had nothing new for 5 s: the emails a round left queued go out before the next round. */
  const drain = async () => {
    const server = await start(process.execPath, [cli, "serve"], env)
    let seen = -1
    while (seen !== messages) {
      seen = messages
      await sleep(5000)
    }
    await stop(server)
  }
  const runs = []
  for (let round = 1; round <= Number(args.rounds); round++) {
    for (const variant of variants) {
      const server = await start(process.execPath, [cli, "serve"], partOneEnv)
      try {
        const wrk = (seconds) => runWrk({ url: server.url + "/v2/commentannotations/comments/add", data: variant.data, rotate: threadCount, creds, seconds, connections: args.connections })
        await wrk(Number(args.warmup))
        const before = messages
        const rss = peakRss(server.child.pid)
        const { p99ms, rps } = await wrk(Number(args.duration))
        runs.push({ variant: variant.name, rps, p99ms, rssMb: rss(), mailed: messages - before })
      } finally {
        await stop(server)
      }
      await drain()
      const run = runs.at(-1)
      console.log(`round ${round} | ${run.variant}: ${run.rps.toFixed(0)} req/s, p99 ${run.p99ms.toFixed(2)} ms, peak RSS ${run.rssMb.toFixed(0)} MB, ${run.mailed} emails during the run`)
    }
  }
  console.log(`\n${database.storage}; comments/add mentioning 10 users; wrk -t1 -c${args.connections} -d${args.duration}s after ${args.warmup}s warm-up, ${args.rounds} alternating rounds; server on core 0, wrk on core 1; node ${process.version}\n`)
  console.log("| comments/add | req/s | p99 ms | peak RSS MB |\n|---|---:|---:|---:|")
  for (const variant of variants) {
    const mine = runs.filter((r) => r.variant === variant.name)
    console.log(`| ${variant.name} | ${median(mine.map((r) => r.rps)).toFixed(0)} | ${median(mine.map((r) => r.p99ms)).toFixed(2)} | ${Math.max(...mine.map((r) => r.rssMb)).toFixed(0)} |`)
  }
  const [off, on] = variants.map((variant) => runs.filter((r) => r.variant === variant.name))
  console.log(`\non / off (median req/s): ${(median(on.map((r) => r.rps)) / median(off.map((r) => r.rps))).toFixed(2)} (per round: ${on.map((r, k) => (r.rps / off[k].rps).toFixed(2)).join(", ")})`)

  // --- part 2: emails through the digest path --------------------------------------------------
  const total = Number(args.emails)
  const server = await start(process.execPath, [cli, "serve"], env)
  try {
    await post(server.url, "/v2/workspace/notificationconfig/update", {
      useNotificationService: true,
      notificationServiceConfig: { batchConfig: { user: { isEnabled: true, batchWindowSeconds: 10, maxActivities: 10 } } }
    })
    const [messagesBefore, notifiedBefore] = [messages, notified]
    const rss = peakRss(server.child.pid)
    const started = performance.now()
    // 10 recipients a call, 100 users in turn: each user gets total / 100 notifications.
    const calls = total / 10
    for (let from = 0; from < calls; from += 10) {
      await Promise.all(Array.from({ length: Math.min(10, calls - from) }, (_, k) => {
        const n = from + k
        return post(server.url, "/v2/notifications/add", {
          organizationId,
          documentId: `doc-${n % 10}`,
          notifyAll: false,
          notifyUsers: Array.from({ length: 10 }, (_, r) => ({ userId: `user-${(n * 10 + r) % 100}` })),
          actionUser: { userId: "ci", name: "CI" },
          displayHeadlineMessageTemplate: `Build ${n} failed`,
          displayBodyMessage: "See the log."
        })
      }))
    }
    const added = performance.now()
    while (notified - notifiedBefore < total) {
      if (performance.now() - added > 300_000) throw new Error(`only ${notified - notifiedBefore} of ${total} notifications mailed after 5 minutes`)
      await sleep(50)
    }
    const done = performance.now()
    const seconds = (done - started) / 1000
    const sent = messages - messagesBefore
    console.log(`\n${total} notifications (${calls} notifications/add of 10 recipients, 100 users, user digests of 10) on ${database.storage}:`)
    console.log(`| added in | all mailed after | emails | emails/s | notifications mailed/s | peak RSS MB |\n|---:|---:|---:|---:|---:|---:|`)
    console.log(`| ${((added - started) / 1000).toFixed(1)} s | ${seconds.toFixed(1)} s | ${sent} | ${(sent / seconds).toFixed(0)} | ${(total / seconds).toFixed(0)} | ${rss().toFixed(0)} |`)
  } finally {
    await stop(server)
  }
} finally {
  await database.drop()
  smtp.close()
}
