import { createSecretKey } from "node:crypto"
import { open, seal } from "./Aead.js"

/** Page tokens older than this are stale (INVALID_ARGUMENT). */
export const PAGE_TOKEN_LIFETIME_MILLIS = 24 * 60 * 60 * 1000

/** Tolerated clock difference between the server that issued a token and the one reading it. */
export const PAGE_TOKEN_CLOCK_SKEW_MILLIS = 5 * 60 * 1000

const BASE64URL = /^[A-Za-z0-9_-]+$/

export interface PageTokenCodec {
  /** An opaque token for `cursor`, bound to `binding` (API key + operation + canonical filters). */
  readonly encode: (binding: string, cursor: unknown, issuedAtMillis: number) => string
  /** The cursor, or `undefined` for a malformed, tampered, foreign (other binding) or stale token. Never throws. */
  readonly decode: (binding: string, token: string, nowMillis: number) => unknown | undefined
}

/**
 * AES-256-GCM page token codec. Token = base64url(iv | tag | ciphertext) of `{c: cursor, t: issuedAt}`,
 * with `binding` as additional authenticated data so a token only decodes for the same key and filters.
 */
export const makePageTokenCodec = (secret: Uint8Array): PageTokenCodec => {
  if (secret.length !== 32) throw new Error(`page token secret must be 32 bytes, got ${secret.length}`)
  // One KeyObject for the codec's lifetime: no per-request key derivation or copying.
  const key = createSecretKey(secret)

  const encode = (binding: string, cursor: unknown, issuedAtMillis: number): string => {
    const plaintext = Buffer.from(JSON.stringify({ c: cursor, t: issuedAtMillis }), "utf8")
    return seal(key, plaintext, Buffer.from(binding, "utf8")).toString("base64url")
  }

  const decode = (binding: string, token: string, nowMillis: number): unknown | undefined => {
    // Buffer.from(…, "base64url") silently skips bad characters, so check the alphabet first.
    if (typeof token !== "string" || !BASE64URL.test(token)) return undefined
    const bytes = Buffer.from(token, "base64url")
    // One token, one spelling: reject trailing bits/characters the decoder would drop.
    if (bytes.toString("base64url") !== token) return undefined
    const opened = open(key, bytes, Buffer.from(binding, "utf8"))
    if (opened === undefined) return undefined // too short, tampered, other key, or other binding
    const plaintext = opened.toString("utf8")
    let payload: unknown
    try {
      payload = JSON.parse(plaintext)
    } catch {
      return undefined
    }
    if (typeof payload !== "object" || payload === null || !("t" in payload)) return undefined
    const issuedAt = (payload as { t: unknown }).t
    if (typeof issuedAt !== "number" || !Number.isFinite(issuedAt)) return undefined
    if (nowMillis - issuedAt > PAGE_TOKEN_LIFETIME_MILLIS) return undefined
    if (issuedAt - nowMillis > PAGE_TOKEN_CLOCK_SKEW_MILLIS) return undefined
    return (payload as { c?: unknown }).c
  }

  return { encode, decode }
}

/**
 * JSON with object keys sorted at every level, so equal filters give equal bindings whatever
 * order the client sent them in. Follows JSON.stringify otherwise (toJSON, undefined members dropped).
 */
export const canonicalJson = (value: unknown): string => serialize(value) ?? "null"

const serialize = (value: unknown): string | undefined => {
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON: () => unknown }).toJSON()
  }
  if (value === null || typeof value !== "object") return JSON.stringify(value) as string | undefined
  if (Array.isArray(value)) return `[${value.map((item) => serialize(item) ?? "null").join(",")}]`
  const parts: Array<string> = []
  for (const k of Object.keys(value).sort()) {
    const v = serialize((value as Record<string, unknown>)[k])
    if (v !== undefined) parts.push(`${JSON.stringify(k)}:${v}`)
  }
  return `{${parts.join(",")}}`
}
