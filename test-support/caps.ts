/**
 * The check every capped batch gets in its domain's tests (issue 21; the caps: docs/protocol.md,
 * "Limits"): one entry over the cap is refused INVALID_ARGUMENT naming the field and the cap, and
 * a call at the cap succeeds. The caller then checks that the refused call wrote none of its
 * entries (`tag` "over"), which test/protocol/list-caps.test.ts also checks, table by table.
 */
import { expect } from "vitest"

interface Answer {
  readonly status: number
  readonly body: any
  readonly text: string
}

export const expectCap = async (options: {
  readonly post: (path: string, data: unknown) => Promise<Answer>
  readonly path: string
  /** The field as the message names it: `users`, `commentAnnotations[0].commentData`. */
  readonly field: string
  readonly max: number
  /** The call with `n` entries; `tag` ("over" or "at") keeps the two calls' ids apart. */
  readonly data: (n: number, tag: "over" | "at") => unknown
  /** The message, when not `must have at most <max> entries` (a cap on lists together). */
  readonly message?: string
}) => {
  const over = await options.post(options.path, options.data(options.max + 1, "over"))
  expect(over.status, over.text).toBe(400)
  expect(over.body.error.status).toBe("INVALID_ARGUMENT")
  expect(over.body.error.message).toBe(`Invalid data.${options.field}: ${options.message ?? `must have at most ${options.max} entries`}`)
  const at = await options.post(options.path, options.data(options.max, "at"))
  expect(at.status, at.text.slice(0, 500)).toBeLessThan(300)
  return at
}
