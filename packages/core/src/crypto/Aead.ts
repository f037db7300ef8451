import { createCipheriv, createDecipheriv, type KeyObject, randomBytes } from "node:crypto"

const IV_BYTES = 12
const TAG_BYTES = 16

/**
 * AES-256-GCM as Atrium stores it: iv | tag | ciphertext in one buffer, with optional additional
 * authenticated data. Page tokens and secrets at rest both use it.
 */
export const seal = (key: KeyObject, plaintext: Buffer, aad?: Buffer): Buffer => {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES })
  if (aad !== undefined) cipher.setAAD(aad)
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext])
}

/** The plaintext of `sealed`, or undefined when it is too short or fails authentication (tampered, other key, other AAD). */
export const open = (key: KeyObject, sealed: Buffer, aad?: Buffer): Buffer | undefined => {
  if (sealed.length <= IV_BYTES + TAG_BYTES) return undefined
  try {
    // authTagLength pins the tag size: GCM would otherwise accept a truncated tag.
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES })
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
    if (aad !== undefined) decipher.setAAD(aad)
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()])
  } catch {
    return undefined
  }
}
