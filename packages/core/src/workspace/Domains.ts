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

const ORIGIN = /^(https?):\/\/([^/?#@\s]+)$/

/**
 * The allowed-domain entries (as `normalizeDomain` stores them) any one of which admits a browser
 * page at `origin` (`scheme://host[:port]`, as the `Origin` header sends it); undefined for an
 * origin that is not http(s) (`null`, `file://`, a path). docs/decisions.md, "Client API":
 * - the scheme does not count (entries keep none): http and https alike;
 * - an entry without a port admits every port, one with a port only that port (the scheme's
 *   default port when the origin names none: `example.com:443` admits `https://example.com`);
 * - `www.` is the site itself, as when entries are stored: `example.com` admits `www.example.com`;
 * - `*.example.com` admits every subdomain at any depth (`www.example.com` included), not
 *   `example.com` itself.
 *
 *   https://a.b.example.com → a.b.example.com, a.b.example.com:443, *.b.example.com, *.b.example.com:443, *.example.com, *.example.com:443
 */
export const entriesAdmitting = (origin: string): ReadonlyArray<string> | undefined => {
  const parts = ORIGIN.exec(origin)
  if (parts === null) return undefined
  const normalized = normalizeDomain(parts[2]!)
  if (normalized === undefined || normalized.startsWith("*.")) return undefined
  const withPort = /^(.*):(\d+)$/.exec(normalized)
  const name = withPort === null ? normalized : withPort[1]!
  const port = withPort === null ? (parts[1] === "https" ? ":443" : ":80") : `:${withPort[2]}`
  const entries = [name, name + port]
  if (IPV4.test(name) || name === "localhost") return entries
  // Subdomains of every parent with at least two labels; `www.` counts as one (normalizing dropped it).
  const labels = name.split(".")
  const sent = parts[2]!.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "")
  if (sent.startsWith("www.") && sent.slice(4) === name) labels.unshift("www")
  for (let i = 1; i <= labels.length - 2; i++) {
    const parent = labels.slice(i).join(".")
    entries.push(`*.${parent}`, `*.${parent}${port}`)
  }
  return entries
}
