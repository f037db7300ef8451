// Webhook receivers for bench/deliveries.mjs: `count` node:http servers on loopback that answer
// 200 at once and count what arrives. Started as a child process; prints one JSON line
// {"urls": [...]} when listening, then answers on stdin: "stats" prints
// {"received", "byMessage", "latencies" (ms from the event's timestamp to arrival), "perSecond"}.
import { createServer } from "node:http"
import { createInterface } from "node:readline"

const count = Number(process.argv[2] ?? 10)
let received = 0
const perMessage = new Map()
const latencies = []
const perSecond = new Map()

const servers = await Promise.all(Array.from({ length: count }, (_, index) =>
  new Promise((resolve) => {
    const server = createServer((request, response) => {
      let body = ""
      request.on("data", (chunk) => (body += chunk))
      request.on("end", () => {
        const now = Date.now()
        received++
        // One delivery per message and endpoint: a second one is a duplicate.
        const id = `${index}:${request.headers["webhook-id"]}`
        perMessage.set(id, (perMessage.get(id) ?? 0) + 1)
        const timestamp = /"timestamp":(\d+)/.exec(body)
        if (timestamp) latencies.push(now - Number(timestamp[1]))
        const second = Math.floor(now / 1000)
        perSecond.set(second, (perSecond.get(second) ?? 0) + 1)
        response.writeHead(200).end()
      })
    })
    server.keepAliveTimeout = 65_000
    server.listen(0, "127.0.0.1", () => resolve(server))
  })
))

process.stdout.write(JSON.stringify({ urls: servers.map((s) => `http://127.0.0.1:${s.address().port}/hooks`) }) + "\n")

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line === "stats") {
    const duplicates = [...perMessage.values()].filter((n) => n > 1).length
    process.stdout.write(JSON.stringify({ received, deliveries: perMessage.size, duplicates, latencies, perSecond: [...perSecond] }) + "\n")
  } else if (line === "reset") {
    received = 0
    perMessage.clear()
    latencies.length = 0
    perSecond.clear()
    process.stdout.write("{}\n")
  }
})
