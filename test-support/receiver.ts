/**
 * A webhook receiver on loopback: a real node:http server that records every request and
 * answers what the test tells it to. Deliveries are verified with the `standardwebhooks`
 * package, the reference implementation receivers use.
 */
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"

export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly at: number
}

export interface Answer {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  /** Wait this long before answering. */
  readonly delayMillis?: number
  /** Never answer: the request stays open until the sender gives up or the receiver closes. */
  readonly hold?: boolean
}

export interface Receiver {
  readonly url: string
  readonly received: Array<Received>
  /** What the next requests get (default 200). */
  answer: (request: Received) => Answer
  /** Requests that arrived and are neither answered nor given up by their sender. */
  readonly open: () => number
  /** Resolves once `count` requests have arrived (rejects after `timeoutMillis`). */
  readonly waitFor: (count: number, timeoutMillis?: number) => Promise<void>
  readonly close: () => Promise<void>
}

export const startReceiver = async (): Promise<Receiver> => {
  const received: Array<Received> = []
  const waiters: Array<() => void> = []
  let open = 0
  const receiver: Receiver = {
    url: "",
    received,
    answer: () => ({ status: 200 }),
    open: () => open,
    waitFor: (count, timeoutMillis = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => received.length >= count
        if (check()) return resolve()
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMillis} ms`)), timeoutMillis)
        waiters.push(() => {
          if (check()) {
            clearTimeout(timer)
            resolve()
          }
        })
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const entry: Received = { headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() }
      received.push(entry)
      open++
      response.once("close", () => open--)
      const answer = receiver.answer(entry)
      if (answer.hold === true) return
      setTimeout(() => {
        response.writeHead(answer.status, answer.headers ?? {})
        response.end(answer.body ?? "")
        for (const waiter of waiters) waiter()
      }, answer.delayMillis ?? 0)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  ;(receiver as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return receiver
}

/** Verifies a delivery with `standardwebhooks` against `secret`; the parsed body, or throws. */
export const verified = (secret: string, delivery: Received): any =>
  new Webhook(secret).verify(delivery.body, {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"])
  })
