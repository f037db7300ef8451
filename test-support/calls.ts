import type { TestClient, TestCredentials } from "@atrium/core/testing"
import { expect } from "vitest"

/**
 * A key's calls on the backend `client()` gives: `post` answers as it came; `ok` fails the test
 * unless the answer is 200, naming the path and the answer, and gives its `result`.
 */
export const keyCalls = (client: () => TestClient) => {
  const post = (creds: TestCredentials, path: string, data: unknown) => client().post(path, data, creds.headers)
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await post(creds, path, data)
    expect(answer.status, `${path}: ${answer.text}`).toBe(200)
    return answer.body.result
  }
  return { post, ok }
}
