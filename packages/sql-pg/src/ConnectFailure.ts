/**
 * Why the first connection to PostgreSQL failed, in words that name the cause and what to change
 * (issue 27: "PostgreSQL: failed to connect" alone hid a missing database, a wrong role and a
 * closed port alike). `where` is host:port/database from the URL, never its password.
 */
export const connectFailureMessage = (url: string, cause: unknown): string => {
  const where = describeUrl(url)
  const reason = driverReason(cause)
  const code = (cause as { readonly code?: unknown } | null)?.code
  const hint = typeof code === "string" ? HINTS[code] : undefined
  return `PostgreSQL: cannot connect to ${where}: ${reason}${hint === undefined ? "" : ` (${hint})`}`
}

/** host:port/database of a postgres:// URL; the URL's shape only, never its credentials. */
export const describeUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    const user = parsed.username === "" ? "" : `${decodeURIComponent(parsed.username)}@`
    return `${user}${parsed.hostname || "localhost"}:${parsed.port || "5432"}${parsed.pathname === "/" ? "" : parsed.pathname}`
  } catch {
    return "the server DATABASE_URL names"
  }
}

/** What the driver said: pg's error message, or each address's for a refused connection (Node's AggregateError). */
const driverReason = (cause: unknown): string => {
  if (cause instanceof AggregateError && cause.errors.length > 0) {
    return [...new Set(cause.errors.map((error) => (error instanceof Error ? error.message : String(error))))].join("; ")
  }
  if (cause instanceof Error) return cause.message === "" ? cause.name : cause.message
  return String(cause)
}

/** What to change, by the error code pg or Node gives. */
const HINTS: Readonly<Record<string, string>> = {
  ECONNREFUSED: "is PostgreSQL running there? check DATABASE_URL's host and port",
  ENOTFOUND: "no such host: check DATABASE_URL's host",
  EAI_AGAIN: "the host name could not be resolved: check DATABASE_URL's host",
  ETIMEDOUT: "no answer: check DATABASE_URL's host and port, and the firewall",
  "3D000": "create the database (createdb <name>) or fix DATABASE_URL's database",
  "28000": "the role is unknown or not allowed by pg_hba.conf: fix DATABASE_URL's user",
  "28P01": "wrong password: fix DATABASE_URL's password",
  "42501": "the role lacks a privilege Atrium needs",
  "53300": "the server has no free connection slots",
  "57P03": "the server is starting up or shutting down: try again"
}
