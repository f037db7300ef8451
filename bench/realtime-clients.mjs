// Subscribed sockets for bench/realtime.mjs, in a process of their own (forked with IPC, pinned by
// the bench): opens them, subscribes each to one document, and times every `event` it receives
// against the event's `timestamp` (the commit time, same machine clock) and against the writer's
// send time carried in the annotation id (`w-<ms>-<n>`); in the presence scenario each socket sends
// cursor presence at a rate and times every other user's `presence` message against the send time
// its `data.t` carries. Driven by messages: open, reset, report, presence, close.
import WebSocket from "ws"

const sockets = []
let stats

const reset = () => {
  stats = { received: 0, firstAt: 0, lastAt: 0, latencies: [], fromWriter: [], sample: undefined, presenceSent: 0 }
}
let opened // { url, where }: what `open` was given, for the presence frames
reset()

// Cheap reads of the two times: at saturation this process receives 100,000s of messages a second
// on one core, and JSON.parse would make it the bottleneck.
const EVENT = "{\"type\":\"event\""
const PRESENCE = "{\"type\":\"presence\""
const onMessage = (data) => {
  const now = Date.now()
  const text = data.toString()
  if (text.startsWith(PRESENCE)) {
    // Another user's cursor: `data.t` is when its page sent it (the last "t" of the message).
    const at = text.lastIndexOf("\"t\":")
    if (at < 0) return
    stats.received++
    if (stats.firstAt === 0) stats.firstAt = now
    stats.lastAt = now
    stats.latencies.push(now - parseInt(text.slice(at + 4, at + 20), 10))
    stats.sample ??= text
    return
  }
  if (!text.startsWith(EVENT)) return
  stats.received++
  if (stats.firstAt === 0) stats.firstAt = now
  stats.lastAt = now
  const at = text.indexOf("\"timestamp\":", text.indexOf("\"event\":{")) + 12
  stats.latencies.push(now - parseInt(text.slice(at, at + 16), 10))
  const sent = text.indexOf("\"annotationId\":\"w-")
  if (sent >= 0) stats.fromWriter.push(now - parseInt(text.slice(sent + 18, sent + 31), 10))
  stats.sample ??= text
}

const openOne = (url, where, localAddress) =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { localAddress, perMessageDeflate: false })
    ws.once("error", reject)
    ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)))
    ws.once("open", () => ws.send(JSON.stringify({ type: "subscribe", id: 1, ...where })))
    ws.once("message", (data) => {
      const answer = JSON.parse(data.toString())
      if (answer.type !== "subscribed") return reject(new Error(`subscribe answered ${data}`))
      ws.on("message", onMessage)
      ws.on("error", () => {})
      sockets.push(ws)
      resolve()
    })
  })

const handlers = {
  open: async ({ url, tokens, where, localAddresses = ["127.0.0.1"], inFlight = 100 }) => {
    opened = { url, where }
    const t0 = Date.now()
    let next = 0
    const failures = []
    await Promise.all(Array.from({ length: inFlight }, async () => {
      while (next < tokens.length) {
        const i = next++
        await openOne(`${url}?token=${tokens[i]}`, where, localAddresses[i % localAddresses.length]).catch((error) => failures.push(String(error.message)))
      }
    }))
    return { opened: sockets.length, failed: failures.length, firstFailure: failures[0], ms: Date.now() - t0 }
  },
  reset: () => (reset(), {}),
  /** Every socket sends cursor presence `hz` times a second for `seconds`, starts spread over one period; answers when done. */
  presence: async ({ hz, seconds }) => {
    const period = 1000 / hz
    const until = Date.now() + seconds * 1000
    await Promise.all(sockets.map((ws, i) =>
      new Promise((resolve) => {
        setTimeout(() => {
          const timer = setInterval(() => {
            if (Date.now() >= until) return resolve(clearInterval(timer))
            const t = Date.now()
            ws.send(`{"type":"presence","organizationId":${JSON.stringify(opened.where.organizationId)},"documentId":${JSON.stringify(opened.where.documentId)},"data":{"cursor":{"x":${t % 1000},"y":${i}},"t":${t}}}`)
            stats.presenceSent++
          }, period)
        }, (i * period) / sockets.length)
      })
    ))
    return { sent: stats.presenceSent }
  },
  count: () => ({ received: stats.received, lastAt: stats.lastAt }),
  report: () => stats,
  close: () => {
    for (const ws of sockets) ws.terminate()
    setTimeout(() => process.exit(0), 50)
    return {}
  }
}

process.on("message", async ({ id, cmd, ...args }) => {
  try {
    process.send({ id, ok: await handlers[cmd](args) })
  } catch (error) {
    process.send({ id, error: String(error.stack ?? error) })
  }
})
