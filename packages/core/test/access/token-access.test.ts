/**
 * TokenAccess (issue 23, item 1): a host that guards its own routes with Atrium's tokens verifies
 * the token and asks the rule in one call. Over every storage, with tokens generate_token issued.
 */
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { TokenAccess } from "../../src/access/TokenAccess.js"
import type { TestCredentials } from "../../src/testing/index.js"

forEachBackend("token access", (ctx: () => Started) => {
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const tokenFor = async (creds: TestCredentials, userId: string, resources: ReadonlyArray<unknown> = []) =>
    (await ok(creds, "/v2/auth/generate_token", {
      userId,
      userProperties: { name: userId, email: `${userId}@example.com` },
      permissions: { resources }
    })).data.token as string
  const check = (token: string, documentId: string) =>
    ctx().atrium.runtime.runPromise(Effect.either(TokenAccess.check({ token, organizationId: "org", documentId })))

  const workspace = async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "closed", accessType: "restricted" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "closed", documents: [{ documentId: "secret" }] })
    return creds
  }

  it("answers who the token's user is and what the rule decides, the token's entries counted", async () => {
    const creds = await workspace()
    const plain = await tokenFor(creds, "ann")
    const granted = await tokenFor(creds, "bob", [{ type: "document", id: "secret", organizationId: "org", accessRole: "viewer" }])
    const answer = await check(plain, "secret")
    expect(answer._tag).toBe("Right")
    if (answer._tag !== "Right") return
    expect(answer.right.token).toMatchObject({ userId: "ann", apiKey: creds.apiKey, user: { name: "ann", email: "ann@example.com", isAdmin: false } })
    expect(answer.right.access).toMatchObject({ accessRole: null, reason: "restricted document" })
    expect(await check(granted, "secret")).toMatchObject({ _tag: "Right", right: { access: { accessRole: "viewer", reason: "document grant" } } })
    // A stored grant reaches a token issued before it.
    await ok(creds, "/v2/auth/permissions/add", { user: { userId: "ann" }, permissions: { resources: [{ type: "folder", id: "closed", organizationId: "org", accessRole: "editor" }] } })
    expect(await check(plain, "secret")).toMatchObject({ _tag: "Right", right: { access: { accessRole: "editor", reason: "folder grant" } } })
  })

  it("a token acts inside its own key: another key's grants and documents are not its", async () => {
    const creds = await workspace()
    const other = await workspace()
    await ok(creds, "/v2/auth/permissions/add", { user: { userId: "ann" }, permissions: { resources: [{ type: "document", id: "secret", organizationId: "org" }] } })
    expect(await check(await tokenFor(other, "ann"), "secret")).toMatchObject({ _tag: "Right", right: { token: { apiKey: other.apiKey }, access: { accessRole: null } } })
  })

  it("a token this Atrium did not issue, or a broken one, is UNAUTHENTICATED 'Invalid token.'", async () => {
    const creds = await workspace()
    const token = await tokenFor(creds, "ann")
    const [head, body] = token.split(".")
    for (const bad of [`${head}.${body}.AAAA`, "not-a-token", ""]) {
      expect(await check(bad, "secret")).toMatchObject({ _tag: "Left", left: { status: "UNAUTHENTICATED", message: "Invalid token." } })
    }
  })

  it("generate_token's expiresInSeconds sets exp (60 to 172,800), refused outside", async () => {
    const creds = await workspace()
    const short = (await ok(creds, "/v2/auth/generate_token", { userId: "ann", userProperties: { name: "Ann", email: "ann@example.com" }, permissions: { resources: [] }, expiresInSeconds: 60 })).data.token as string
    const claims = JSON.parse(Buffer.from(short.split(".")[1]!, "base64url").toString())
    expect(claims.exp - claims.iat).toBe(60)
    for (const expiresInSeconds of [59, 172_801, 1.5]) {
      const answer = await ctx().client.post("/v2/auth/generate_token", { userId: "ann", userProperties: { name: "Ann", email: "ann@example.com" }, permissions: { resources: [] }, expiresInSeconds }, creds.headers)
      expect(answer.status).toBe(400)
      expect(answer.body.error.message).toContain("expiresInSeconds")
    }
  })
})

describe("token access without a backend", () => {
  it("is exported for hosts", async () => {
    const core = await import("../../src/index.js")
    expect(core.TokenAccess).toBe(TokenAccess)
  })
})
