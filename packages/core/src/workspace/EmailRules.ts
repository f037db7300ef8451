/** Well-known throwaway-mailbox domains. Subdomains match too (`x.mailinator.com`). */
export const DISPOSABLE_EMAIL_DOMAINS: ReadonlyArray<string> = [
  "10minutemail.com",
  "10minutemail.net",
  "20minutemail.com",
  "33mail.com",
  "anonbox.net",
  "burnermail.io",
  "discard.email",
  "discardmail.com",
  "dispostable.com",
  "dropmail.me",
  "emailondeck.com",
  "fakeinbox.com",
  "fakemail.net",
  "getairmail.com",
  "getnada.com",
  "guerrillamail.biz",
  "guerrillamail.com",
  "guerrillamail.de",
  "guerrillamail.info",
  "guerrillamail.net",
  "guerrillamail.org",
  "guerrillamailblock.com",
  "grr.la",
  "harakirimail.com",
  "incognitomail.org",
  "inboxbear.com",
  "jetable.org",
  "mailcatch.com",
  "maildrop.cc",
  "mailinator.com",
  "mailinator.net",
  "mailinator2.com",
  "mailnesia.com",
  "mailsac.com",
  "mintemail.com",
  "moakt.com",
  "mohmal.com",
  "mytemp.email",
  "nada.email",
  "pokemail.net",
  "sharklasers.com",
  "spam4.me",
  "spamgourmet.com",
  "spambox.us",
  "spamex.com",
  "temp-mail.io",
  "temp-mail.org",
  "tempail.com",
  "tempinbox.com",
  "tempmail.com",
  "tempmail.net",
  "tempmailo.com",
  "tempr.email",
  "throwawaymail.com",
  "trash-mail.com",
  "trashmail.com",
  "trashmail.de",
  "trashmail.net",
  "mailforspam.com",
  "wegwerfmail.de",
  "yopmail.com",
  "yopmail.fr",
  "yopmail.net"
]

const normalizeEmailDomain = (domain: string): string =>
  domain.trim().toLowerCase().replace(/^@/, "").replace(/^\*\./, "").replace(/\.$/, "")

const BUILT_IN: ReadonlySet<string> = new Set(DISPOSABLE_EMAIL_DOMAINS)

/**
 * Whether `email`'s domain (or a parent domain of it) is a disposable-mail domain,
 * from the built-in list or `extra` (entries may be `domain`, `@domain` or `*.domain`).
 */
export const isDisposableEmail = (email: string, extra?: ReadonlyArray<string>): boolean => {
  const at = email.lastIndexOf("@")
  const domain = normalizeEmailDomain(at >= 0 ? email.slice(at + 1) : email)
  if (domain === "") return false
  const extraSet = extra !== undefined && extra.length > 0 ? new Set(extra.map(normalizeEmailDomain)) : undefined
  // Walk up the labels: a.b.mailinator.com → b.mailinator.com → mailinator.com → com.
  for (let candidate = domain; ; ) {
    if (BUILT_IN.has(candidate) || extraSet?.has(candidate) === true) return true
    const dot = candidate.indexOf(".")
    if (dot < 0) return false
    candidate = candidate.slice(dot + 1)
  }
}

export type ContinueUrlCheck = "ok" | "invalid-url" | "domain-not-allowed"

/**
 * A `continueUrl` (where the user lands after an email action) must be an http(s) URL on the
 * console domain or on `localhost` (any port). Only the exact hostname `localhost` is accepted
 * for local development, not 127.0.0.1 or [::1], as that is what the spec names.
 */
export const continueUrlCheck = (continueUrl: string, consoleDomain: string | undefined): ContinueUrlCheck => {
  let url: URL
  try {
    url = new URL(continueUrl)
  } catch {
    return "invalid-url"
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "invalid-url"
  const hostname = url.hostname.replace(/\.$/, "") // URL lowercases; a trailing dot names the same host
  if (hostname === "localhost") return "ok"
  const allowed = consoleHostname(consoleDomain)
  return allowed !== undefined && hostname === allowed ? "ok" : "domain-not-allowed"
}

/** The console domain as a bare hostname; tolerates a configured `https://console.example.com/`. */
const consoleHostname = (consoleDomain: string | undefined): string | undefined => {
  const trimmed = consoleDomain?.trim().toLowerCase().replace(/\.$/, "")
  if (trimmed === undefined || trimmed === "") return undefined
  try {
    return new URL(trimmed.includes("://") ? trimmed : `https://${trimmed}`).hostname
  } catch {
    return trimmed
  }
}
