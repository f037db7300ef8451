import { randomBytes } from "node:crypto"

/** 24 bytes: the length of the hosted service's example secret (32 base64 characters after `whsec_`). */
export const SIGNING_SECRET_BYTES = 24

/**
 * A new endpoint signing secret in the Standard Webhooks form, `whsec_` + base64 of random bytes
 * (docs/decisions.md, "Product rulings"). It is kept as is, since deliveries sign with its decoded bytes.
 */
export const newSigningSecret = (): string => `whsec_${randomBytes(SIGNING_SECRET_BYTES).toString("base64")}`
