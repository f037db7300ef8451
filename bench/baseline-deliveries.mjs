// The bare baseline of bench/deliveries.mjs: sign and POST `total` requests to the receivers
// with keep-alive, `concurrency` at a time, no storage. Prints {"seconds", "perSecond"}.
//   node bench/baseline-deliveries.mjs <urls-json> <total> <concurrency>
import { createHmac, randomBytes } from "node:crypto"
import * as http from "node:http"

const urls = JSON.parse(process.argv[2])
const total = Number(process.argv[3])
const concurrency = Number(process.argv[4] ?? 32)
const key = randomBytes(24)
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })

const post = (url, id, body) =>
  new Promise((resolve, reject) => {
    const timestamp = Math.floor(Date.now() / 1000)
    const signature = `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`
    const request = http.request(url, {
      method: "POST",
      agent,
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "webhook-id": id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signature
      }
    }, (response) => {
      response.resume()
      response.on("end", () => (response.statusCode >= 200 && response.statusCode < 300 ? resolve() : reject(new Error(String(response.statusCode)))))
    })
    request.on("error", reject)
    request.end(body)
  })

let next = 0
const started = performance.now()
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (next < total) {
    const n = next++
    const id = `msg_${Math.floor(n / urls.length)}`
    const body = JSON.stringify({ webhookId: id, event: "bench.event", source: "bench", actionType: "event", timestamp: Date.now(), data: { n } })
    await post(urls[n % urls.length], id, body)
  }
}))
const seconds = (performance.now() - started) / 1000
process.stdout.write(JSON.stringify({ seconds, perSecond: total / seconds }) + "\n")
agent.destroy()
