import { isIP } from "node:net"

/**
 * Which addresses an outgoing call (webhook delivery, permission provider) must not reach
 * (docs/decisions.md, "Webhooks"): loopback, private, link-local, carrier-grade NAT,
 * unspecified, multicast, cloud metadata and other special-purpose ranges, IPv4 written inside
 * IPv6 (mapped, NAT64, 6to4) included. Pure: the transport resolves, this decides.
 */

interface Range {
  readonly bytes: ReadonlyArray<number>
  readonly prefix: number
  readonly why: string
}

const v4 = (cidr: string, why: string): Range => {
  const [address, prefix] = cidr.split("/")
  return { bytes: address!.split(".").map(Number), prefix: Number(prefix), why }
}

const v6 = (cidr: string, why: string): Range => {
  const [address, prefix] = cidr.split("/")
  return { bytes: ipv6Bytes(address!)!, prefix: Number(prefix), why }
}

const IPV4_RANGES: ReadonlyArray<Range> = [
  v4("0.0.0.0/8", "unspecified"),
  v4("10.0.0.0/8", "private"),
  v4("100.64.0.0/10", "carrier-grade NAT"),
  v4("127.0.0.0/8", "loopback"),
  v4("169.254.169.254/32", "cloud metadata"),
  v4("169.254.0.0/16", "link-local"),
  v4("172.16.0.0/12", "private"),
  v4("192.0.0.0/24", "reserved"),
  v4("192.0.2.0/24", "reserved"),
  v4("192.88.99.0/24", "reserved"),
  v4("192.168.0.0/16", "private"),
  v4("198.18.0.0/15", "reserved"),
  v4("198.51.100.0/24", "reserved"),
  v4("203.0.113.0/24", "reserved"),
  v4("224.0.0.0/4", "multicast"),
  v4("240.0.0.0/4", "reserved")
]

/** IPv6 ranges that carry an IPv4 address in their last (or, for 6to4, second and third) 32 bits. */
const EMBEDDED_IPV4: ReadonlyArray<{ readonly range: Range; readonly at: number }> = [
  { range: v6("::ffff:0:0/96", "IPv4-mapped"), at: 12 },
  { range: v6("64:ff9b::/96", "NAT64"), at: 12 },
  { range: v6("2002::/16", "6to4"), at: 2 }
]

const IPV6_RANGES: ReadonlyArray<Range> = [
  v6("::1/128", "loopback"),
  v6("::/128", "unspecified"),
  v6("::/96", "reserved"),
  v6("64:ff9b:1::/48", "reserved"),
  v6("100::/64", "reserved"),
  v6("2001::/32", "reserved"),
  v6("2001:db8::/32", "reserved"),
  v6("fd00:ec2::254/128", "cloud metadata"),
  v6("fc00::/7", "private"),
  v6("fe80::/10", "link-local"),
  v6("fec0::/10", "private"),
  v6("ff00::/8", "multicast")
]

const inRange = (bytes: ReadonlyArray<number>, range: Range) => {
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const take = Math.min(8, range.prefix - bit)
    const mask = (0xff << (8 - take)) & 0xff
    if ((bytes[bit / 8]! & mask) !== (range.bytes[bit / 8]! & mask)) return false
  }
  return true
}

/** The 16 bytes of an IPv6 address (dotted IPv4 tail and zone id accepted), or undefined. */
export function ipv6Bytes(text: string): Array<number> | undefined {
  let address = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "")
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address)
  if (dotted !== null) {
    const parts = dotted[1]!.split(".").map(Number)
    if (parts.some((p) => p > 255)) return undefined
    address = address.slice(0, dotted.index) + `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`
  }
  const halves = address.split("::")
  if (halves.length > 2) return undefined
  const groups = (half: string) => half === "" ? [] : half.split(":")
  const head = groups(halves[0]!)
  const tail = halves.length === 2 ? groups(halves[1]!) : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail]
  if (all.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return undefined
  return all.flatMap((g) => {
    const n = parseInt(g, 16)
    return [n >> 8, n & 0xff]
  })
}

const forbiddenV4 = (bytes: ReadonlyArray<number>) => {
  if (bytes.every((b) => b === 255)) return "broadcast"
  return IPV4_RANGES.find((range) => inRange(bytes, range))?.why
}

/**
 * Why `address` (an IP literal) must not be called, or undefined when it may. Anything that
 * is not an IP address is refused too: the caller resolves names first.
 */
export const forbiddenAddress = (address: string): string | undefined => {
  const bare = address.replace(/^\[|\]$/g, "")
  const family = isIP(bare.replace(/%.*$/, ""))
  if (family === 4) return forbiddenV4(bare.split(".").map(Number))
  const bytes = family === 6 ? ipv6Bytes(bare) : undefined
  if (bytes === undefined) return "not an IP address"
  for (const { at, range } of EMBEDDED_IPV4) {
    if (inRange(bytes, range)) {
      const why = forbiddenV4(bytes.slice(at, at + 4))
      if (why !== undefined) return `${why} (${range.why})`
    }
  }
  return IPV6_RANGES.find((range) => inRange(bytes, range))?.why
}
