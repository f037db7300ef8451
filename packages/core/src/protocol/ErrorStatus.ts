/**
 * The error vocabulary of the API (Google's canonical codes) and the one table
 * that maps each to an HTTP status (docs/decisions.md, "Product rulings").
 */
export const httpStatusOf = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  ABORTED: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  UNKNOWN: 500,
  DATA_LOSS: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504
} as const

export type ErrorStatus = keyof typeof httpStatusOf

export const errorStatuses = Object.keys(httpStatusOf) as ReadonlyArray<ErrorStatus>
