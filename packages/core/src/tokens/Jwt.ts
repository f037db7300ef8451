import {
  createLocalJWKSet,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
  type JWTVerifyOptions
} from "jose"

/** An ES256 signing key. `privateJwk` never leaves the server; `publicJwk` is what the JWKS publishes. */
export interface SigningKey {
  readonly kid: string
  readonly privateJwk: JWK
  readonly publicJwk: JWK
  /** Milliseconds since the epoch. */
  readonly createdAt?: number
}

export type TokenResourceType = "organization" | "document" | "folder"
export type TokenAccessRole = "viewer" | "editor"

export interface TokenResource {
  readonly type: TokenResourceType
  readonly id: string
  readonly organizationId?: string
  readonly accessRole: TokenAccessRole
  /** Milliseconds since the epoch (see `normalizeExpiresAt`). */
  readonly expiresAt?: number
}

export interface TokenUser {
  readonly userId: string
  readonly name: string
  readonly email: string
  readonly isAdmin: boolean
}

export interface TokenPermissions {
  readonly resources: ReadonlyArray<TokenResource>
}

export interface UserTokenClaims {
  readonly issuer: string
  readonly userId: string
  /** The API key the token is for; becomes `aud`. */
  readonly audience: string
  readonly issuedAtSeconds: number
  /** Seconds from `iat` to `exp` (default TOKEN_LIFETIME_SECONDS). */
  readonly lifetimeSeconds?: number
  readonly jti: string
  readonly user: TokenUser
  readonly permissions: TokenPermissions
}

/** A verified token's payload. Times are in seconds since the epoch (JWT `iat` / `exp`). */
export interface VerifiedToken {
  readonly issuer: string
  readonly userId: string
  readonly apiKey: string
  readonly jti: string
  readonly issuedAt: number
  readonly expiresAt: number
  readonly user: TokenUser
  readonly permissions: TokenPermissions
}

export const TOKEN_ALGORITHM = "ES256"

/** User tokens live 48 hours. */
export const TOKEN_LIFETIME_SECONDS = 48 * 3600

/** Below this a timestamp is taken as seconds: 10^12 ms is 2001, 10^12 s is year ~33658. */
const SECONDS_MILLIS_THRESHOLD = 1e12

/** Resource expiry may be given in seconds or milliseconds; returns whole milliseconds. */
export const normalizeExpiresAt = (value: number): number =>
  Math.round(value < SECONDS_MILLIS_THRESHOLD ? value * 1000 : value)

/** A fresh ES256 (P-256) key pair, exported as JWKs so it can be stored. `createdAt` comes from the caller's clock. */
export const generateSigningKey = async (kid: string, createdAt: number): Promise<SigningKey> => {
  const { privateKey, publicKey } = await generateKeyPair(TOKEN_ALGORITHM, { extractable: true })
  const [privateJwk, publicJwk] = await Promise.all([exportJWK(privateKey), exportJWK(publicKey)])
  return {
    kid,
    privateJwk: { ...privateJwk, kid, alg: TOKEN_ALGORITHM },
    publicJwk: publicOnly({ ...publicJwk, kid }),
    createdAt
  }
}

/**
 * Whitelist of public EC members: a JWKS must never carry `d`, and dropping WebCrypto's
 * `key_ops`/`ext` keeps `createLocalJWKSet` key selection predictable.
 */
const publicOnly = (jwk: JWK): JWK => {
  const out: JWK = { kty: jwk.kty ?? "EC", alg: TOKEN_ALGORITHM, use: "sig" }
  if (jwk.crv !== undefined) out.crv = jwk.crv
  if (jwk.x !== undefined) out.x = jwk.x
  if (jwk.y !== undefined) out.y = jwk.y
  if (jwk.kid !== undefined) out.kid = jwk.kid
  return out
}

/** The public JWKS for `keys` (e.g. current + previous during rotation). */
export const jwks = (keys: ReadonlyArray<SigningKey>): { keys: JWK[] } => ({
  keys: keys.map((key) => publicOnly({ ...key.publicJwk, kid: key.kid }))
})

// Imported private keys per kid. The `d` check guards against two different keys
// sharing a kid (e.g. a key regenerated after a reset) silently signing with the old one.
const MAX_CACHED_KEYS = 64
const signingKeyCache = new Map<string, { readonly d: string | undefined; readonly key: Promise<CryptoKey> }>()

const importSigningKey = (key: SigningKey): Promise<CryptoKey> => {
  const cached = signingKeyCache.get(key.kid)
  if (cached !== undefined && cached.d === key.privateJwk.d) return cached.key
  const imported = importJWK(key.privateJwk, TOKEN_ALGORITHM, { extractable: false }).then((k) => {
    // An "oct" JWK would import as raw bytes; only an EC private key can sign ES256.
    if (k instanceof Uint8Array) throw new errors.JOSENotSupported("expected an EC private JWK")
    return k
  })
  // A failed import must not poison the cache.
  imported.catch(() => {
    if (signingKeyCache.get(key.kid)?.key === imported) signingKeyCache.delete(key.kid)
  })
  signingKeyCache.delete(key.kid)
  if (signingKeyCache.size >= MAX_CACHED_KEYS) {
    const oldest = signingKeyCache.keys().next().value
    if (oldest !== undefined) signingKeyCache.delete(oldest)
  }
  signingKeyCache.set(key.kid, { d: key.privateJwk.d, key: imported })
  return imported
}

/** Signs a user token: `iss`, `sub`=userId, `aud`=apiKey, `iat`, `exp`=iat+48h, `jti`, `user`, `permissions`. */
export const signUserToken = async (key: SigningKey, claims: UserTokenClaims): Promise<string> => {
  const privateKey = await importSigningKey(key)
  return new SignJWT({ user: claims.user, permissions: claims.permissions })
    .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid: key.kid, typ: "JWT" })
    .setIssuer(claims.issuer)
    .setSubject(claims.userId)
    .setAudience(claims.audience)
    .setIssuedAt(claims.issuedAtSeconds)
    .setExpirationTime(claims.issuedAtSeconds + (claims.lifetimeSeconds ?? TOKEN_LIFETIME_SECONDS))
    .setJti(claims.jti)
    .sign(privateKey)
}

export interface VerifyTokenOptions {
  readonly jwks: { keys: JWK[] }
  readonly issuer?: string
  readonly audience?: string
  readonly currentDate?: Date
}

// Building a JWK set per call would re-import keys on every verify; callers normally reuse one JWKS object.
const jwkSetCache = new WeakMap<object, ReturnType<typeof createLocalJWKSet>>()

const jwkSetFor = (set: { keys: JWK[] }) => {
  let resolver = jwkSetCache.get(set)
  if (resolver === undefined) {
    resolver = createLocalJWKSet(set)
    jwkSetCache.set(set, resolver)
  }
  return resolver
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const invalid = (payload: JWTPayload, claim: string): never => {
  throw new errors.JWTClaimValidationFailed(`"${claim}" claim is invalid`, payload, claim, "invalid")
}

const parseUser = (payload: JWTPayload): TokenUser => {
  const u = payload["user"]
  if (
    !isRecord(u) || typeof u["userId"] !== "string" || typeof u["name"] !== "string" ||
    typeof u["email"] !== "string" || typeof u["isAdmin"] !== "boolean"
  ) return invalid(payload, "user")
  return { userId: u["userId"], name: u["name"], email: u["email"], isAdmin: u["isAdmin"] }
}

const RESOURCE_TYPES: ReadonlySet<string> = new Set<TokenResourceType>(["organization", "document", "folder"])
const ACCESS_ROLES: ReadonlySet<string> = new Set<TokenAccessRole>(["viewer", "editor"])

const parsePermissions = (payload: JWTPayload): TokenPermissions => {
  const p = payload["permissions"]
  if (!isRecord(p) || !Array.isArray(p["resources"])) return invalid(payload, "permissions")
  const resources = (p["resources"] as Array<unknown>).map((r): TokenResource => {
    if (
      !isRecord(r) || typeof r["type"] !== "string" || !RESOURCE_TYPES.has(r["type"]) ||
      typeof r["id"] !== "string" || typeof r["accessRole"] !== "string" || !ACCESS_ROLES.has(r["accessRole"]) ||
      (r["organizationId"] !== undefined && typeof r["organizationId"] !== "string") ||
      (r["expiresAt"] !== undefined && typeof r["expiresAt"] !== "number")
    ) return invalid(payload, "permissions")
    const resource: { -readonly [K in keyof TokenResource]: TokenResource[K] } = {
      type: r["type"] as TokenResourceType,
      id: r["id"],
      accessRole: r["accessRole"] as TokenAccessRole
    }
    if (typeof r["organizationId"] === "string") resource.organizationId = r["organizationId"]
    if (typeof r["expiresAt"] === "number") resource.expiresAt = r["expiresAt"]
    return resource
  })
  return { resources }
}

/**
 * Verifies an Atrium user token against a JWKS (ES256 only) and returns its typed payload.
 * Throws jose errors (`JWSSignatureVerificationFailed`, `JWTExpired`, `JWTClaimValidationFailed`, …).
 */
export const verifyToken = async (token: string, options: VerifyTokenOptions): Promise<VerifiedToken> => {
  const verifyOptions: JWTVerifyOptions = {
    algorithms: [TOKEN_ALGORITHM],
    typ: "JWT",
    requiredClaims: ["iss", "sub", "aud", "iat", "exp", "jti"]
  }
  if (options.issuer !== undefined) verifyOptions.issuer = options.issuer
  if (options.audience !== undefined) verifyOptions.audience = options.audience
  if (options.currentDate !== undefined) verifyOptions.currentDate = options.currentDate
  const { payload } = await jwtVerify(token, jwkSetFor(options.jwks), verifyOptions)

  const aud = Array.isArray(payload.aud) && payload.aud.length === 1 ? payload.aud[0] : payload.aud
  if (typeof aud !== "string") return invalid(payload, "aud")
  if (typeof payload.iss !== "string") return invalid(payload, "iss")
  if (typeof payload.sub !== "string") return invalid(payload, "sub")
  if (typeof payload.jti !== "string") return invalid(payload, "jti")
  if (typeof payload.iat !== "number") return invalid(payload, "iat")
  if (typeof payload.exp !== "number") return invalid(payload, "exp")
  return {
    issuer: payload.iss,
    userId: payload.sub,
    apiKey: aud,
    jti: payload.jti,
    issuedAt: payload.iat,
    expiresAt: payload.exp,
    user: parseUser(payload),
    permissions: parsePermissions(payload)
  }
}
