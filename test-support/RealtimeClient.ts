/**
 * A real WebSocket client (`ws`) for the realtime tests: a socket that keeps what it receives and
 * waits for the messages a test expects, and the HTTP answer to an upgrade the server refused.
 */
import WebSocket from "ws"

/** A client socket that keeps every message it receives, and waits for the ones a test expects. */
export const openSocket = async (url: string): Promise<Socket> => {
  const ws = new WebSocket(url)
  const received: Array<any> = []
  const waiters: Array<() => void> = []
  ws.on("message", (data) => {
    received.push(JSON.parse(data.toString()))
    waiters.splice(0).forEach((wake) => wake())
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })))
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve())
    ws.once("error", reject)
  })
  /** The first message not yet taken that matches, waiting up to 5 s for it. */
  const next = async (match: (message: any) => boolean = () => true): Promise<any> => {
    const deadline = Date.now() + 5000
    for (;;) {
      const i = received.findIndex(match)
      if (i >= 0) return received.splice(i, 1)[0]
      if (Date.now() > deadline) throw new Error(`no such message; received ${JSON.stringify(received).slice(0, 500)}`)
      await new Promise<void>((wake) => {
        waiters.push(wake)
        setTimeout(wake, 100)
      })
    }
  }
  return { ws, received, next, closed, send: (message: unknown) => ws.send(typeof message === "string" ? message : JSON.stringify(message)) }
}
export interface Socket {
  readonly ws: WebSocket
  readonly received: Array<any>
  readonly next: (match?: (message: any) => boolean) => Promise<any>
  readonly closed: Promise<{ code: number; reason: string }>
  readonly send: (message: unknown) => void
}

/** The HTTP answer to an upgrade the server refused. */
export const refusal = (url: string) =>
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.on("open", () => reject(new Error("the upgrade was accepted")))
    ws.on("unexpected-response", (_request, response) => {
      let text = ""
      response.on("data", (chunk) => (text += chunk))
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }))
    })
    ws.on("error", () => {})
  })


/**
 * What every mount of realtime must do, checked through `url` (Atrium's HTTP base, with its mount
 * path): an upgrade without a token refused with 401 before it happens; a user's socket that
 * subscribes to a document gets a change made through the server API as an `event`.
 */
export const realtimeMountScenario = async (url: string, expect: (value: unknown) => any) => {
  const post = async (path: string, data: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ data }) })
    const body = await response.json() as any
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`)
    return body.result.data
  }
  const created = await post("/v2/workspace/create", { ownerEmail: `realtime-${Math.random().toString(36).slice(2)}@example.com` })
  const [apiKey, { authToken }] = Object.entries(created.apiKeyList)[0] as [string, { authToken: string }]
  const headers = { "x-service-api-key": apiKey, "x-service-auth-token": authToken }
  const where = { organizationId: "acme", documentId: "spec-42" }
  const socketUrl = `${url.replace(/^http/, "ws")}/v2/client/realtime`
  expect((await refusal(socketUrl)).status).toBe(401)
  const { token } = await post("/v2/auth/generate_token", { userId: "ann", userProperties: { name: "Ann", email: "ann@example.com" }, permissions: { resources: [] } }, headers)
  const socket = await openSocket(`${socketUrl}?token=${token}`)
  try {
    socket.send({ type: "subscribe", id: 1, ...where })
    expect(await socket.next()).toMatchObject({ type: "subscribed", id: 1, ...where })
    await post("/v2/commentannotations/add", {
      ...where,
      createOrganization: true,
      createDocument: true,
      commentAnnotations: [{ annotationId: "t1", commentData: [{ commentText: "live", from: { userId: "bob" } }] }]
    }, headers)
    expect(await socket.next((m) => m.type === "event")).toMatchObject({ type: "event", ...where, seq: 1, event: { type: "comment_annotation.add" } })
  } finally {
    socket.ws.close()
  }
}
