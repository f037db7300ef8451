import { describe, expect, it } from "vitest"
import { forbiddenAddress, ipv6Bytes } from "../../src/ports/AddressGuard.js"

describe("forbiddenAddress", () => {
  const refused: Array<[string, string]> = [
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.10.10", "link-local"],
    ["169.254.169.254", "cloud metadata"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.100.100.200", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.251", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["198.18.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["[::1]", "loopback"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["ff02::1", "multicast"],
    ["fd00:ec2::254", "cloud metadata"],
    ["::ffff:127.0.0.1", "loopback (IPv4-mapped)"],
    ["::ffff:7f00:1", "loopback (IPv4-mapped)"],
    ["::ffff:169.254.169.254", "cloud metadata (IPv4-mapped)"],
    ["0:0:0:0:0:ffff:a00:1", "private (IPv4-mapped)"],
    ["64:ff9b::10.0.0.1", "private (NAT64)"],
    ["2002:7f00:1::", "loopback (6to4)"],
    ["2002:c0a8:101::1", "private (6to4)"],
    ["::127.0.0.1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["localhost", "not an IP address"]
  ]
  it.each(refused)("refuses %s (%s)", (address, why) => {
    expect(forbiddenAddress(address)).toBe(why)
  })

  const allowed = ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "169.255.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::1"]
  it.each(allowed)("allows %s", (address) => {
    expect(forbiddenAddress(address)).toBeUndefined()
  })

  it("reads every IPv6 spelling to the same bytes", () => {
    expect(ipv6Bytes("::ffff:127.0.0.1")).toEqual(ipv6Bytes("0:0:0:0:0:ffff:7f00:0001"))
    expect(ipv6Bytes("1::")).toEqual([0, 1, ...Array(14).fill(0)])
    expect(ipv6Bytes("1:2:3:4:5:6:7:8:9")).toBeUndefined()
    expect(ipv6Bytes("1::2::3")).toBeUndefined()
  })
})
