import { decodeProtectedHeader, errors, SignJWT, importJWK } from "jose"
import { describe, expect, it } from "vitest"
import {
  generateSigningKey,
  jwks,
  normalizeExpiresAt,
  signUserToken,
  TOKEN_LIFETIME_SECONDS,
  verifyToken,
  type SigningKey,
  type UserTokenClaims
} from "../../src/tokens/Jwt.js"

const ISSUER = "https://atrium.test"
const IAT = 1_800_000_000

const claims = (overrides: Partial<UserTokenClaims> = {}): UserTokenClaims => ({
  issuer: ISSUER,
  userId: "u_1",
  audience: "ak_123",
  issuedAtSeconds: IAT,
  jti: "jti_abc",
  user: { userId: "u_1", name: "Ada", email: "ada@example.com", isAdmin: false },
  permissions: {
    resources: [
      { type: "organization", id: "org_1", accessRole: "editor" },
      { type: "document", id: "doc_1", organizationId: "org_1", accessRole: "viewer", expiresAt: 1_900_000_000_000 }
    ]
  },
  ...overrides
})

const at = (seconds: number) => new Date(seconds * 1000)

/** Flips one character in the middle of a token segment (0 = header, 1 = payload, 2 = signature). */
const tamper = (token: string, segment: number): string => {
  const parts = token.split(".")
  const s = parts[segment]!
  const i = Math.floor(s.length / 2)
  parts[segment] = s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1)
  return parts.join(".")
}

describe("Jwt", () => {
  it("generates an ES256 key with a public JWK carrying kid, alg and use", async () => {
    const key = await generateSigningKey("k1", 0)
    expect(key.kid).toBe("k1")
    expect(key.privateJwk.d).toBeTypeOf("string")
    expect(key.publicJwk).toMatchObject({ kty: "EC", crv: "P-256", kid: "k1", alg: "ES256", use: "sig" })
    expect(key.publicJwk.d).toBeUndefined()
  })

  it("signs and verifies a token round trip with all claims", async () => {
    const key = await generateSigningKey("k1", 0)
    const token = await signUserToken(key, claims())
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", kid: "k1", typ: "JWT" })

    const verified = await verifyToken(token, {
      jwks: jwks([key]),
      issuer: ISSUER,
      audience: "ak_123",
      currentDate: at(IAT + 60)
    })
    expect(verified).toEqual({
      issuer: ISSUER,
      userId: "u_1",
      apiKey: "ak_123",
      jti: "jti_abc",
      issuedAt: IAT,
      expiresAt: IAT + 48 * 3600,
      user: claims().user,
      permissions: claims().permissions
    })
  })

  it("expires exactly 48 hours after iat", async () => {
    expect(TOKEN_LIFETIME_SECONDS).toBe(172_800)
    const key = await generateSigningKey("k1", 0)
    const token = await signUserToken(key, claims())
    const set = jwks([key])
    const verified = await verifyToken(token, { jwks: set, currentDate: at(IAT + TOKEN_LIFETIME_SECONDS - 1) })
    expect(verified.expiresAt - verified.issuedAt).toBe(TOKEN_LIFETIME_SECONDS)
    await expect(verifyToken(token, { jwks: set, currentDate: at(IAT + TOKEN_LIFETIME_SECONDS) })).rejects.toBeInstanceOf(
      errors.JWTExpired
    )
    await expect(verifyToken(token, { jwks: set, currentDate: at(IAT + TOKEN_LIFETIME_SECONDS + 3600) })).rejects.toBeInstanceOf(
      errors.JWTExpired
    )
  })

  it("rejects a token signed by another key, even with the same kid", async () => {
    const key = await generateSigningKey("k1", 0)
    const other = await generateSigningKey("k1", 0)
    const token = await signUserToken(other, claims())
    await expect(verifyToken(token, { jwks: jwks([key]), currentDate: at(IAT + 60) })).rejects.toBeInstanceOf(
      errors.JWSSignatureVerificationFailed
    )
    // …and the signing key cache did not hand `other` the first key: it verifies with its own JWKS.
    await expect(verifyToken(token, { jwks: jwks([other]), currentDate: at(IAT + 60) })).resolves.toMatchObject({ userId: "u_1" })
  })

  it("rejects a token whose kid is not in the JWKS", async () => {
    const key = await generateSigningKey("k1", 0)
    const other = await generateSigningKey("k2", 0)
    const token = await signUserToken(other, claims())
    await expect(verifyToken(token, { jwks: jwks([key]), currentDate: at(IAT + 60) })).rejects.toBeInstanceOf(
      errors.JWKSNoMatchingKey
    )
  })

  it("verifies against a rotated JWKS holding several keys", async () => {
    const oldKey = await generateSigningKey("old", 0)
    const newKey = await generateSigningKey("new", 0)
    const set = jwks([newKey, oldKey])
    const token = await signUserToken(oldKey, claims())
    await expect(verifyToken(token, { jwks: set, currentDate: at(IAT + 60) })).resolves.toMatchObject({ apiKey: "ak_123" })
  })

  it("rejects tampered tokens", async () => {
    const key = await generateSigningKey("k1", 0)
    const token = await signUserToken(key, claims())
    const set = jwks([key])
    const opts = { jwks: set, currentDate: at(IAT + 60) }
    await expect(verifyToken(tamper(token, 1), opts)).rejects.toBeInstanceOf(errors.JOSEError)
    await expect(verifyToken(tamper(token, 2), opts)).rejects.toBeInstanceOf(errors.JOSEError)

    // A payload swapped for one granting admin, keeping the original signature.
    const [header, , signature] = token.split(".")
    const forged = Buffer.from(JSON.stringify({ ...claims(), sub: "u_1", user: { ...claims().user, isAdmin: true } })).toString("base64url")
    await expect(verifyToken(`${header}.${forged}.${signature}`, opts)).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed)
    await expect(verifyToken("not-a-jwt", opts)).rejects.toBeInstanceOf(errors.JOSEError)
  })

  it("checks issuer and audience when asked", async () => {
    const key = await generateSigningKey("k1", 0)
    const token = await signUserToken(key, claims())
    const set = jwks([key])
    await expect(verifyToken(token, { jwks: set, audience: "ak_other", currentDate: at(IAT + 60) })).rejects.toBeInstanceOf(
      errors.JWTClaimValidationFailed
    )
    await expect(verifyToken(token, { jwks: set, issuer: "https://evil.test", currentDate: at(IAT + 60) })).rejects.toBeInstanceOf(
      errors.JWTClaimValidationFailed
    )
  })

  it("rejects a validly signed token whose payload has the wrong shape", async () => {
    const key = await generateSigningKey("k1", 0)
    const privateKey = await importJWK(key.privateJwk, "ES256")
    const token = await new SignJWT({ user: { userId: "u_1" }, permissions: { resources: [] } })
      .setProtectedHeader({ alg: "ES256", kid: "k1", typ: "JWT" })
      .setIssuer(ISSUER).setSubject("u_1").setAudience("ak_123").setIssuedAt(IAT).setExpirationTime(IAT + 100).setJti("j")
      .sign(privateKey)
    await expect(verifyToken(token, { jwks: jwks([key]), currentDate: at(IAT + 1) })).rejects.toBeInstanceOf(
      errors.JWTClaimValidationFailed
    )
  })

  it("publishes only public key material in the JWKS", async () => {
    const keys: Array<SigningKey> = [await generateSigningKey("a", 0), await generateSigningKey("b", 0)]
    // Even if a stored publicJwk were polluted with private members, they must not leak.
    const polluted: SigningKey = { ...keys[1]!, publicJwk: { ...keys[1]!.privateJwk } }
    const set = jwks([keys[0]!, polluted])
    expect(set.keys.map((k) => k.kid)).toEqual(["a", "b"])
    for (const k of set.keys) {
      expect(k.d).toBeUndefined()
      expect(Object.keys(k).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x", "y"])
    }
    expect(JSON.stringify(set)).not.toContain('"d"')
  })

  it("normalizes resource expiry to milliseconds", () => {
    expect(normalizeExpiresAt(1_700_000_000)).toBe(1_700_000_000_000)
    expect(normalizeExpiresAt(1_700_000_000_000)).toBe(1_700_000_000_000)
    expect(normalizeExpiresAt(999_999_999_999)).toBe(999_999_999_999_000)
    expect(normalizeExpiresAt(1e12)).toBe(1e12)
  })
})
