/** Your app's way to get the signed-in user's Atrium token: typically a call to your backend, which calls generate_token. */
export type GetToken = () => string | Promise<string>

/** The user's token, asked of the host's `getToken` and kept until it is due for renewal. */
export interface TokenCache {
  /** The token to send: the kept one, or a new one when there is none yet or it is about to expire. */
  readonly current: () => Promise<string>
  /**
   * A new token after Atrium answered `token_expired` for `stale`. When another call already
   * replaced `stale`, its token is the answer: one expiry asks `getToken` once, however many calls met it.
   */
  readonly renew: (stale: string) => Promise<string>
}

/**
 * Concurrent calls share one pending `getToken`. A token is sent as the host gave it even when its
 * `exp` says it is due (the browser's clock may be wrong; Atrium's answer decides), and the next
 * call asks for a new one.
 */
export const createTokenCache = (getToken: GetToken, now: () => number = Date.now): TokenCache => {
  let kept: { readonly token: string; readonly renewAt: number } | undefined
  let pending: Promise<string> | undefined

  const ask = (): Promise<string> => {
    if (pending !== undefined) return pending
    // getToken runs after this returns, so a synchronous throw settles `asked` like a rejection.
    const asked = Promise.resolve().then(getToken).then((token) => {
      if (typeof token !== "string" || token === "") throw new Error(`getToken gave ${token === "" ? "an empty string" : typeof token}, not a token.`)
      kept = { token, renewAt: renewalTime(token) }
      return token
    })
    pending = asked
    const settled = () => {
      if (pending === asked) pending = undefined
    }
    asked.then(settled, settled)
    return asked
  }

  const current = () => (pending === undefined && kept !== undefined && now() < kept.renewAt ? Promise.resolve(kept.token) : ask())

  return {
    current,
    renew: (stale) => {
      if (kept?.token !== stale) return current()
      kept = undefined // Atrium refused it: no call sends it again, even if this renewal fails.
      return ask()
    }
  }
}

/** How long before its expiry a token is renewed, at most. */
export const RENEW_BEFORE_EXPIRY_MS = 60_000

/**
 * When to ask for a new token: a minute before its `exp`, or halfway through its life when that
 * is later (a 60-second token is renewed after 30 s, not before every call). A token whose
 * payload says no `exp` is kept until Atrium answers `token_expired`.
 */
export const renewalTime = (token: string): number => {
  const claims = payloadOf(token)
  if (typeof claims?.["exp"] !== "number") return Number.POSITIVE_INFINITY
  const expiresAt = claims["exp"] * 1000
  const lifetime = typeof claims["iat"] === "number" ? expiresAt - claims["iat"] * 1000 : Number.POSITIVE_INFINITY
  return expiresAt - Math.min(RENEW_BEFORE_EXPIRY_MS, lifetime / 2)
}

/** The user a token is for (its `sub`), read without verifying it: the realtime rooms leave the user out of `others`. */
export const subjectOf = (token: string): string | undefined => {
  const subject = payloadOf(token)?.["sub"]
  return typeof subject === "string" ? subject : undefined
}

/** A JWT's claims, read without verifying them (Atrium verifies; this only schedules renewal). */
const payloadOf = (token: string): Record<string, unknown> | undefined => {
  try {
    const part = token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")
    const bytes = Uint8Array.from(atob(part.padEnd(part.length + ((4 - (part.length % 4)) % 4), "=")), (c) => c.charCodeAt(0))
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes))
    return typeof claims === "object" && claims !== null ? (claims as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
