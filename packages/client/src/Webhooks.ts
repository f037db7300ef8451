/**
 * `verifyWebhook`: a receiver's check that a delivery comes from Atrium, unchanged and recent, the
 * Standard Webhooks way (docs/webhooks.md): HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`
 * under the endpoint's secret (`whsec_<base64>`), among the `v1,<base64>` signatures of
 * `webhook-signature`. WebCrypto only, so it runs in Node 20+, browsers and edge runtimes; the
 * `standardwebhooks` and `svix` packages verify the same deliveries.
 */

/** What Atrium delivers (docs/webhooks.md, "Payload"). */
export interface WebhookEvent {
  readonly webhookId: string
  readonly event: string
  readonly source: string
  readonly actionType: string
  readonly timestamp: number
  readonly data: Readonly<Record<string, unknown>>
}

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError"
}

export interface VerifyWebhookOptions {
  /** The endpoint's signing secret, `whsec_…`, as endpoints/create or secret/rotate gave it. */
  readonly secret: string
  /** The request body exactly as received: parsed and re-serialised JSON no longer matches its signature. */
  readonly body: string | Uint8Array
  /** The request's headers: a `Headers`, or Node's `req.headers`. */
  readonly headers: Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  /** How far the delivery's timestamp may be from now, either way (default 300 s: replays are refused). */
  readonly toleranceSeconds?: number | undefined
  /** Now, in milliseconds (default `Date.now()`). */
  readonly now?: number | undefined
}

/** The delivery's event once its signature and time check out; otherwise a WebhookVerificationError saying what failed. */
export const verifyWebhook = async <E = WebhookEvent>(options: VerifyWebhookOptions): Promise<E> => {
  const header = (name: string) => {
    const value = options.headers instanceof Headers ? options.headers.get(name) : options.headers[name]
    return Array.isArray(value) ? value[0] : (value as string | null | undefined) ?? undefined
  }
  const id = header("webhook-id")
  const timestamp = header("webhook-timestamp")
  const signatures = header("webhook-signature")
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    throw new WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header: not a signed delivery.")
  }
  const seconds = Number(timestamp)
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000)
  const tolerance = options.toleranceSeconds ?? 300
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - seconds) > tolerance) {
    throw new WebhookVerificationError(`The delivery's timestamp ${timestamp} is more than ${tolerance} s from now: too old (a replay?) or not a time.`)
  }
  const body = typeof options.body === "string" ? options.body : new TextDecoder().decode(options.body)
  const expected = await sign(options.secret, `${id}.${timestamp}.${body}`)
  const matches = signatures.split(" ").some((entry: string) => {
    const [version, signature] = entry.split(",", 2)
    return version === "v1" && signature !== undefined && constantTimeEqual(signature, expected)
  })
  if (!matches) throw new WebhookVerificationError("No signature matches: a different secret, or a body changed on the way.")
  try {
    return JSON.parse(body) as E
  } catch {
    throw new WebhookVerificationError("The signed body is not JSON.")
  }
}

/** base64 of HMAC-SHA256(`content`) under the secret's key (the part after `whsec_`, base64). */
const sign = async (secret: string, content: string): Promise<string> => {
  let key: Uint8Array<ArrayBuffer>
  try {
    key = Uint8Array.from(atob(secret.startsWith("whsec_") ? secret.slice(6) : secret), (c) => c.charCodeAt(0))
  } catch {
    throw new WebhookVerificationError("The secret is not whsec_ followed by base64.")
  }
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, new TextEncoder().encode(content)))
  return btoa(String.fromCharCode(...signature))
}

/** Compares without stopping at the first difference, so timing tells nothing of the expected signature. */
const constantTimeEqual = (a: string, b: string) => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}
