import { createHash, timingSafeEqual } from "node:crypto"
import { randomBase62 } from "../ports/Ids.js"

/** A fresh secret (API auth tokens, workspace tokens): 32 random base62 characters, ~190 bits. */
export const newSecret = (): string => randomBase62(32)

/** Secrets are stored as SHA-256 hex: they are long random strings, so a slow hash buys nothing. */
export const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex")

/** Constant-time comparison of a presented secret with a stored hash. */
export const secretMatches = (presented: string, storedHash: string): boolean => {
  const a = Buffer.from(hashSecret(presented), "hex")
  const b = Buffer.from(storedHash, "hex")
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The last characters of a secret, to show which one it is without revealing it. */
export const secretHint = (secret: string): string => `…${secret.slice(-4)}`
