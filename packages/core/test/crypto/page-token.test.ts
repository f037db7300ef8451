import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { canonicalJson, makePageTokenCodec, PAGE_TOKEN_LIFETIME_MILLIS } from "../../src/crypto/PageToken.js"

const NOW = 1_800_000_000_000
const binding = (apiKey: string, filters: unknown) => `${apiKey}|documents.list|${canonicalJson(filters)}`
const B = binding("ak_1", { folderId: "f1", organizationId: "o1" })
const cursor = { id: "doc_42", updatedAt: 1_700_000_000_000, names: ["ä", "b"] }

/** Flips one bit of the decoded token at byte `i`. */
const flip = (token: string, i: number): string => {
  const bytes = Buffer.from(token, "base64url")
  bytes[i] = bytes[i]! ^ 0x01
  return bytes.toString("base64url")
}

describe("PageToken", () => {
  const codec = makePageTokenCodec(randomBytes(32))

  it("round-trips a cursor", () => {
    const token = codec.encode(B, cursor, NOW)
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(codec.decode(B, token, NOW + 1000)).toEqual(cursor)
    expect(codec.decode(B, codec.encode(B, 7, NOW), NOW)).toBe(7)
  })

  it("is opaque: the cursor is not readable in the token", () => {
    const token = codec.encode(B, { id: "doc_42" }, NOW)
    expect(Buffer.from(token, "base64url").toString("latin1")).not.toContain("doc_42")
  })

  it("gives different tokens for the same cursor (random IV)", () => {
    const a = codec.encode(B, cursor, NOW)
    const b = codec.encode(B, cursor, NOW)
    expect(a).not.toBe(b)
    expect(codec.decode(B, a, NOW)).toEqual(codec.decode(B, b, NOW))
  })

  it("rejects a token made for another API key or other filters", () => {
    const token = codec.encode(B, cursor, NOW)
    expect(codec.decode(binding("ak_2", { folderId: "f1", organizationId: "o1" }), token, NOW)).toBeUndefined()
    expect(codec.decode(binding("ak_1", { folderId: "f2", organizationId: "o1" }), token, NOW)).toBeUndefined()
    expect(codec.decode(binding("ak_1", {}), token, NOW)).toBeUndefined()
    // Same filters in another key order is the same binding.
    expect(codec.decode(binding("ak_1", { organizationId: "o1", folderId: "f1" }), token, NOW)).toEqual(cursor)
  })

  it("rejects a token from a codec with another secret", () => {
    const other = makePageTokenCodec(randomBytes(32))
    expect(other.decode(B, codec.encode(B, cursor, NOW), NOW)).toBeUndefined()
  })

  it("rejects any tampered byte (iv, tag, ciphertext) and truncation", () => {
    const token = codec.encode(B, cursor, NOW)
    const length = Buffer.from(token, "base64url").length
    for (const i of [0, 11, 12, 27, 28, length - 1]) expect(codec.decode(B, flip(token, i), NOW)).toBeUndefined()
    const bytes = Buffer.from(token, "base64url")
    expect(codec.decode(B, bytes.subarray(0, length - 1).toString("base64url"), NOW)).toBeUndefined()
    expect(codec.decode(B, bytes.subarray(0, 28).toString("base64url"), NOW)).toBeUndefined()
    expect(codec.decode(B, token + "A", NOW)).toBeUndefined()
  })

  it("rejects tokens older than 24 hours (and far-future ones)", () => {
    const token = codec.encode(B, cursor, NOW)
    expect(codec.decode(B, token, NOW + PAGE_TOKEN_LIFETIME_MILLIS)).toEqual(cursor)
    expect(codec.decode(B, token, NOW + PAGE_TOKEN_LIFETIME_MILLIS + 1)).toBeUndefined()
    expect(codec.decode(B, token, NOW - 60 * 60 * 1000)).toBeUndefined()
  })

  it("returns undefined for garbage, never throwing", () => {
    for (const garbage of ["", "!!!", "abc", "a b c", "====", "x".repeat(100), "eyJhbGciOiJIUzI1NiJ9.e30.abc", "%00%ff"]) {
      expect(codec.decode(B, garbage, NOW)).toBeUndefined()
    }
    expect(codec.decode(B, randomBytes(80).toString("base64url"), NOW)).toBeUndefined()
    expect(codec.decode(B, undefined as unknown as string, NOW)).toBeUndefined()
  })

  it("requires a 32-byte secret", () => {
    expect(() => makePageTokenCodec(randomBytes(16))).toThrow()
  })

  it("canonicalJson sorts keys at every level and drops undefined like JSON", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[3,{"y":2,"z":1}]},"b":1}')
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }))
    expect(canonicalJson(["b", "a"])).not.toBe(canonicalJson(["a", "b"]))
    expect(canonicalJson([undefined])).toBe("[null]")
    expect(canonicalJson(undefined)).toBe("null")
    expect(canonicalJson("x")).toBe('"x"')
    expect(canonicalJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}')
  })
})
