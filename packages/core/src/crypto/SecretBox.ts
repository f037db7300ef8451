import * as Context from "effect/Context"
import { createSecretKey, hkdfSync } from "node:crypto"
import { open, seal } from "./Aead.js"

/**
 * Secrets the server must read back (webhook signing secrets, the token signing key, the
 * page-token key, the permission provider's token), sealed before storage writes them and opened
 * after it reads them (docs/decisions.md, "Secrets at rest"). With an encryption key: AES-256-GCM,
 * stored as `enc:v1:<base64url(iv | tag | ciphertext)>`. Without one they are stored as they are.
 * Credentials that are only compared (auth tokens, workspace tokens, login tokens) are hashed
 * instead (crypto/Secrets.ts).
 */
export interface SecretBoxShape {
  readonly seal: (plain: string) => string
  /** A value stored before the key was set is read as it is. */
  readonly open: (stored: string) => string
}

const PREFIX = "enc:v1:"
/** The least key length accepted: `openssl rand -base64 32` gives 44 characters. */
export const MIN_ENCRYPTION_KEY_LENGTH = 32

/** What is wrong with an encryption key ("must be at least …"), or undefined: for the error here and the server's start-up check. */
export const encryptionKeyProblem = (encryptionKey: string): string | undefined =>
  encryptionKey.length < MIN_ENCRYPTION_KEY_LENGTH
    ? `must be at least ${MIN_ENCRYPTION_KEY_LENGTH} characters (openssl rand -base64 32), got ${encryptionKey.length}`
    : undefined

const plain: SecretBoxShape = {
  seal: (value) => value,
  open: (stored) => {
    if (stored.startsWith(PREFIX)) throw new Error("A secret in the database is encrypted, but no encryption key (ATRIUM_ENCRYPTION_KEY) is set.")
    return stored
  }
}

/** The box of `encryptionKey` (any string of at least 32 characters; its AES key is derived with HKDF-SHA-256), or the plain one. */
export const makeSecretBox = (encryptionKey: string | undefined): SecretBoxShape => {
  if (encryptionKey === undefined) return plain
  const problem = encryptionKeyProblem(encryptionKey)
  if (problem !== undefined) throw new Error(`The encryption key ${problem}.`)
  const key = createSecretKey(Buffer.from(hkdfSync("sha256", encryptionKey, "atrium", "atrium secret box v1", 32)))
  return {
    seal: (value) => PREFIX + seal(key, Buffer.from(value, "utf8")).toString("base64url"),
    open: (stored) => {
      if (!stored.startsWith(PREFIX)) return stored
      const opened = open(key, Buffer.from(stored.slice(PREFIX.length), "base64url"))
      if (opened === undefined) {
        throw new Error("A secret in the database cannot be decrypted with this encryption key (ATRIUM_ENCRYPTION_KEY): it was stored under another one.")
      }
      return opened.toString("utf8")
    }
  }
}

/** The box the SQL repositories seal and open with; plain unless `createAtrium` is given an `encryptionKey`. */
export class SecretBox extends Context.Reference<SecretBox>()("@atrium/core/SecretBox", { defaultValue: () => plain }) {}
