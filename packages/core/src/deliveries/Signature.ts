import { createHmac } from "node:crypto"

/** The key of a `whsec_` secret: the base64 after the prefix, decoded (Standard Webhooks). */
const keyOf = (secret: string) => Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64")

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`: one signature entry. */
export const signatureEntry = (secret: string, id: string, timestampSeconds: number, body: string): string =>
  `v1,${createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`

/**
 * The Standard Webhooks headers of one attempt (docs/decisions.md, "Webhooks"): one signature
 * entry per live secret, space-separated, so a receiver holding either secret of a rotation verifies.
 */
export const signedHeaders = (
  secrets: ReadonlyArray<string>,
  id: string,
  timestampSeconds: number,
  body: string
): Record<string, string> => ({
  "content-type": "application/json",
  "user-agent": "Atrium-Webhooks/1",
  "webhook-id": id,
  "webhook-timestamp": String(timestampSeconds),
  "webhook-signature": secrets.map((secret) => signatureEntry(secret, id, timestampSeconds, body)).join(" ")
})

/** A basic (v1) webhook's headers: no signature (the facts), the configured token as `Authorization: Basic <authToken>` when set. */
export const basicHeaders = (authToken: string): Record<string, string> => ({
  "content-type": "application/json",
  "user-agent": "Atrium-Webhooks/1",
  ...(authToken !== "" && { authorization: `Basic ${authToken}` })
})
