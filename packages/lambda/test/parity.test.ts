/**
 * The parity suite (`@atrium/core/testing`) through real Lambda event objects of every kind, each
 * mounted under /collab, against node-http on a real port: the same answers, byte for byte.
 */
import { MemoryStorage, PARITY_MAX_BODY_BYTES, fetchSend, recordParity, type Send, testAtrium } from "@atrium/core/testing"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, expect, it } from "vitest"
// node-http is the reference adapter; the relative import is the only way to it until @atrium/node-http is a devDependency here.
import { toNodeListener } from "@atrium/node-http"
import { toLambdaHandler } from "../src/index.js"
import { albEvent, answerOf, type EventOptions, type HttpRequest, v1Event, v2Event } from "./support/events.js"

const BASE = "/collab"
const atrium = testAtrium(MemoryStorage, { maxBodyBytes: PARITY_MAX_BODY_BYTES })
const server = createServer(toNodeListener(atrium, { basePath: BASE }))
let reference: Awaited<ReturnType<typeof recordParity>>

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  reference = await recordParity(fetchSend(`http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE}`))
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await atrium.dispose()
})

const handler = toLambdaHandler(atrium, { basePath: BASE })

/** A `Send` that turns each request into an event of one kind, invokes the handler, and reads the result back. */
const lambdaSend = (toEvent: (request: HttpRequest, options: EventOptions) => Parameters<typeof handler>[0], options: EventOptions): Send =>
  async (request) => answerOf(await handler(toEvent({ ...request, path: BASE + request.path }, options)))

const kinds: Record<string, Send> = {
  "v1, REST API (stage prod, not in the path)": lambdaSend(v1Event, { stage: "prod" }),
  "v1, HTTP API payload 1.0 (stage dev in the path)": lambdaSend(v1Event, { httpApi: true, stage: "dev" }),
  "v2, HTTP API (stage prod in rawPath)": lambdaSend(v2Event, { stage: "prod" }),
  "v2, Function URL ($default stage)": lambdaSend(v2Event, { stage: "$default" }),
  "ALB, headers": lambdaSend(albEvent, {}),
  "ALB, multi-value headers": lambdaSend(albEvent, { multiValue: true }),
  "v2 with every body base64-encoded": lambdaSend(v2Event, { base64: true })
}

it.each(Object.entries(kinds))("%s answers as node-http does", async (_, send) => {
  expect(Object.keys(reference).length).toBeGreaterThan(10)
  expect(await recordParity(send)).toEqual(reference)
})
