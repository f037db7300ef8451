// Bare baseline for bench/realtime.mjs: node:http + `ws`, no storage, no checks. Any token is
// accepted; `subscribe` is answered `subscribed` at once; POST /broadcast with an `event` message as
// its body sends it to every socket subscribed to that document, with a new seq and the time of
// receipt as its `event.timestamp` (what Atrium's commit time is to its subscribers). A `presence`
// frame is relayed at once to every other socket on its document as Atrium's `presence` message
// (the token stands for the user).
import { createServer } from "node:http"
import { WebSocketServer } from "ws"

const documents = new Map() // "org/doc" → Set of sockets
const seqs = new Map()
const server = createServer((req, res) => {
  if (req.method !== "POST" || req.url !== "/broadcast") return res.end("{}")
  let body = ""
  req.on("data", (chunk) => (body += chunk))
  req.on("end", () => {
    const message = JSON.parse(body)
    const key = `${message.organizationId}/${message.documentId}`
    const seq = (seqs.get(key) ?? 0) + 1
    seqs.set(key, seq)
    message.seq = seq
    message.event.timestamp = Date.now()
    const text = JSON.stringify(message)
    for (const ws of documents.get(key) ?? []) ws.send(text)
    res.setHeader("content-type", "application/json")
    res.end("{\"result\":{\"data\":{}}}")
  })
})
const wss = new WebSocketServer({ server, maxPayload: 16 * 1024 })
wss.on("connection", (ws, req) => {
  const mine = new Set()
  const userId = new URL(req.url, "http://bare").searchParams.get("token")
  const user = { userId, name: null, email: null }
  ws.on("message", (data) => {
    const frame = JSON.parse(data.toString())
    if (frame.type === "presence") {
      const key = `${frame.organizationId}/${frame.documentId}`
      const text = JSON.stringify({ type: "presence", organizationId: frame.organizationId, documentId: frame.documentId, userId, user, status: "online", data: frame.data })
      for (const other of documents.get(key) ?? []) if (other !== ws) other.send(text)
      return
    }
    if (frame.type !== "subscribe") return
    const key = `${frame.organizationId}/${frame.documentId}`
    if (!documents.has(key)) documents.set(key, new Set())
    documents.get(key).add(ws)
    mine.add(key)
    ws.send(JSON.stringify({ type: "subscribed", id: frame.id, organizationId: frame.organizationId, documentId: frame.documentId, presence: [] }))
  })
  ws.on("close", () => mine.forEach((key) => documents.get(key)?.delete(ws)))
})
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1")
