import { domainToASCII } from "node:url"

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/
const NON_ASCII = /[^\x00-\x7f]/

/** Dotted name of at least two valid labels whose last label is not all digits (that would be a malformed IP). */
const isDomainName = (host: string): boolean => {
  if (host.length > 253) return false
  const labels = host.split(".")
  return labels.length >= 2 && labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1]!)
}

/**
 * Normalizes an allowed-domain entry: full URLs or bare domains are accepted; the protocol,
 * path/query/fragment, trailing dot and a leading `www.` are dropped, the result is lowercase
 * (IDNs in punycode), a port is kept. `*.` is allowed only as the first label.
 * Returns undefined for anything that is not a domain, wildcard domain, `localhost` or IPv4 address.
 *
 *   https://www.google.com  → google.com
 *   https://*.firebase.com  → *.firebase.com
 *   localhost:3000          → localhost:3000
 */
export const normalizeDomain = (entry: string): string | undefined => {
  let s = entry.trim().toLowerCase()
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, "").replace(/^\/\//, "")
  const end = s.search(/[/?#]/)
  if (end >= 0) s = s.slice(0, end)
  if (s === "" || s.includes("@")) return undefined // userinfo would hide the real host

  let host = s
  let port = ""
  const withPort = /^(.*):(\d{1,5})$/.exec(s)
  if (withPort !== null) {
    const n = Number(withPort[2])
    if (n < 1 || n > 65535) return undefined
    host = withPort[1]!
    port = `:${n}`
  }
  host = host.replace(/\.$/, "")

  const wildcard = host.startsWith("*.")
  let name = wildcard ? host.slice(2) : host
  if (NON_ASCII.test(name)) {
    name = domainToASCII(name)
    if (name === "") return undefined
  }
  // `www.` is an alias for the site, but `www.com` is itself the domain.
  if (!wildcard && name.startsWith("www.") && name.slice(4).includes(".")) name = name.slice(4)

  if (!wildcard && (name === "localhost" || IPV4.test(name))) return name + port
  if (!isDomainName(name)) return undefined // also rejects `*` anywhere else, `:`, `_`, spaces, IPv6
  return (wildcard ? "*." : "") + name + port
}

/** Normalizes a list of entries: valid ones deduplicated in first-seen order, invalid ones as given. */
export const normalizeDomains = (
  entries: ReadonlyArray<string>
): { readonly valid: Array<string>; readonly invalid: Array<string> } => {
  const seen = new Set<string>()
  const valid: Array<string> = []
  const invalid: Array<string> = []
  for (const entry of entries) {
    const normalized = normalizeDomain(entry)
    if (normalized === undefined) invalid.push(entry)
    else if (!seen.has(normalized)) {
      seen.add(normalized)
      valid.push(normalized)
    }
  }
  return { valid, invalid }
}
