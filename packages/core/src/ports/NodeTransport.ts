import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { lookup as dnsLookup } from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import { isIP, type LookupFunction } from "node:net"
import { forbiddenAddress } from "./AddressGuard.js"
import { AtriumConfig } from "../Config.js"
import { type IncomingResponse, type OutgoingRequest, TransportError, WebhookTransport } from "./WebhookTransport.js"

/** Every address a name resolves to. */
export type LookupAll = (hostname: string) => Promise<ReadonlyArray<{ readonly address: string; readonly family: number }>>

/** The most of an answer kept unless the request says: attempts record the first 4 KiB (docs/decisions.md, "Webhooks"). */
const DEFAULT_MAX_RESPONSE_BYTES = 4096

const systemLookup: LookupAll = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => error ? reject(error) : resolve(addresses)))

/** A refusal the guard made, told apart from network errors by its type. */
class Refused extends Error {}

/**
 * The guarded node:http(s) transport. A name is resolved with `lookup`; if any address it
 * resolves to is forbidden the call is refused, otherwise the socket connects to the address
 * just checked (Node's `lookup` hook), so a second resolution cannot swap in another one.
 */
export const makeNodeTransport = (options: { readonly allowPrivateNetworks: boolean; readonly lookup?: LookupAll }) => {
  const resolveAll = options.lookup ?? systemLookup
  const guardedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolveAll(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(new Error(`${hostname} resolves to no address`), "", 4)
        const refused = options.allowPrivateNetworks
          ? undefined
          : addresses.map((a) => ({ address: a.address, why: forbiddenAddress(a.address) })).find((a) => a.why !== undefined)
        if (refused !== undefined) {
          return callback(new Refused(`${hostname} resolves to ${refused.address} (${refused.why}); outgoing calls to it are refused`), "", 4)
        }
        const chosen = addresses[0]!
        if (lookupOptions.all === true) return callback(null, [chosen])
        callback(null, chosen.address, chosen.family)
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, "", 4)
    )
  }
  const agentOptions = { keepAlive: true, maxSockets: 256, lookup: guardedLookup }
  const agents = { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) }

  /** Sends the request; `onRequest` receives it, so the caller can destroy it (timeout, interruption). */
  const send = (request: OutgoingRequest, onRequest: (outgoing: http.ClientRequest) => void) =>
    new Promise<IncomingResponse>((resolve, reject) => {
      const url = new URL(request.url)
      const literal = url.hostname.replace(/^\[|\]$/g, "")
      // Node does not call `lookup` for an IP literal: check it here.
      if (isIP(literal) !== 0 && !options.allowPrivateNetworks) {
        const why = forbiddenAddress(literal)
        if (why !== undefined) return reject(new Refused(`${literal} is ${why}; outgoing calls to it are refused`))
      }
      const client = url.protocol === "https:" ? https : http
      const agent = agents[url.protocol as keyof typeof agents]
      if (agent === undefined) return reject(new Refused(`${url.protocol} is not http(s)`))
      const outgoing = client.request(url, {
        method: "POST",
        agent,
        headers: { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) }
      }, (response) => {
        const chunks: Array<Buffer> = []
        const maxBytes = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
        let kept = 0
        response.on("data", (chunk: Buffer) => {
          if (kept < maxBytes) {
            chunks.push(chunk)
            kept += chunk.length
          }
        })
        response.on("error", reject)
        response.on("end", () => {
          const retryAfter = response.headers["retry-after"]
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8"),
            ...(typeof retryAfter === "string" && { retryAfter })
          })
        })
      })
      outgoing.on("error", reject)
      onRequest(outgoing)
      outgoing.end(request.body)
    })

  return {
    post: (request: OutgoingRequest) =>
      Effect.async<IncomingResponse, TransportError>((resume) => {
        let outgoing: http.ClientRequest | undefined
        let timedOut = false
        // A timer of the platform, not of Effect's clock: an attempt takes real time even under a test clock.
        const timer = setTimeout(() => {
          timedOut = true
          outgoing?.destroy(new Error("timeout"))
        }, request.timeoutMillis)
        send(request, (created) => (outgoing = created)).then(
          (response) => {
            clearTimeout(timer)
            resume(Effect.succeed(response))
          },
          (error: unknown) => {
            clearTimeout(timer)
            const message = error instanceof Error ? error.message : String(error)
            resume(Effect.fail(
              error instanceof Refused
                ? new TransportError({ reason: "refused", message })
                : timedOut
                ? new TransportError({ reason: "timeout", message: `no answer within ${request.timeoutMillis} ms` })
                : new TransportError({ reason: "network", message })
            ))
          }
        )
        return Effect.sync(() => {
          clearTimeout(timer)
          outgoing?.destroy(new Error("interrupted"))
        })
      })
  }
}

/**
 * The default transport: node:http(s) with keep-alive, no redirects followed, a hard timeout,
 * and the address guard (AddressGuard.ts): names are resolved, every address checked, and the
 * connection made to the address checked. `allowPrivateNetworks` (AtriumConfig) lifts the guard.
 */
export const GuardedTransport = Layer.effect(
  WebhookTransport,
  Effect.map(AtriumConfig, (options) => makeNodeTransport({ allowPrivateNetworks: options.allowPrivateNetworks }))
)

/** The guarded transport with a resolver of your own (tests: names that resolve to what you say). */
export const guardedTransportWith = (options: { readonly allowPrivateNetworks: boolean; readonly lookup?: LookupAll }) =>
  Layer.succeed(WebhookTransport, makeNodeTransport(options))
