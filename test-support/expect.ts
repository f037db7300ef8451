import type { TestResponse } from "@atrium/core/testing"
import { expect } from "vitest"

/** The answer is the spec's INVALID_ARGUMENT envelope (HTTP 400) and its message names `field`; returns the error. */
export const expectInvalidArgument = (answer: TestResponse, field: string) => {
  expect(answer.status, answer.text).toBe(400)
  expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
  expect(answer.body.error.message).toContain(field)
  return answer.body.error
}
