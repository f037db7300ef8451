/**
 * Secrets at rest, read from the database files themselves (SQLite: the file and its WAL;
 * PostgreSQL: every row of every table as text). Credentials that are only compared (API auth
 * tokens, workspace tokens, login tokens) are never there in clear; secrets the server reads
 * back (webhook signing secrets, the token signing key, the page-token key, the permission
 * provider's token) are there as they are without an encryption key, and only encrypted with one.
 */
import { type AtriumHandler, createAtrium } from "@atrium/core"
import { CapturedMail, createTestWorkspace, directClient } from "@atrium/core/testing"
import { PgStorage } from "@atrium/sql-pg"
import { testDatabase } from "@atrium/sql-pg/testing"
import { SqliteStorage } from "@atrium/sql-sqlite"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"

const KEY = "k8Vt3bq0Zr1yXw9uLp2sNc7mGh4dFa6eJi5oQ0ZrTbY="
const OTHER_KEY = "Q0ZrTbYk8Vt3bq0Zr1yXw9uLp2sNc7mGh4dFa6eJi5o="
const PROVIDER_TOKEN = "provider-token-7f3a9c2e1b8d4f6a"
/** A JWK's private part, `"d":"…"` (PostgreSQL's row text doubles the quotes). */
const PRIVATE_JWK = /"{1,2}d"{1,2}:"{1,2}[\w-]{20,}/
const TOKEN_REQUEST = (userId: string) => ({
  userId,
  userProperties: { name: userId, email: `${userId}@example.com` },
  permissions: { resources: [{ type: "organization", id: "org", accessRole: "viewer" }] }
})

interface Store {
  readonly storage: () => Parameters<typeof createAtrium>[0]["storage"]
  /** Everything the database holds, as text. */
  readonly dump: () => Promise<string>
  readonly drop: () => Promise<void>
}

const sqliteStore = (): Store => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-secrets-"))
  const file = join(dir, "atrium.db")
  return {
    storage: () => SqliteStorage.layer({ filename: file }),
    dump: async () => [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString("latin1")).join("\n"),
    drop: async () => rmSync(dir, { recursive: true, force: true })
  }
}

const pgStore = async (): Promise<Store> => {
  const db = await testDatabase()
  return {
    storage: () => PgStorage.layer({ url: db.url }),
    dump: async () => {
      const client = new pg.Client({ connectionString: db.url })
      await client.connect()
      try {
        const tables = (await client.query("SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'")).rows
        let text = ""
        for (const { table_name, table_schema } of tables) {
          const rows = (await client.query(`SELECT t::text AS row FROM "${table_schema}"."${table_name}" t`)).rows
          text += rows.map((r) => r.row).join("\n")
        }
        return text
      } finally {
        await client.end()
      }
    },
    drop: () => db.drop()
  }
}

/** Creates every kind of secret through the API and returns them as the client saw them. */
const createSecrets = async (atrium: AtriumHandler) => {
  const client = directClient(atrium)
  const email = `owner-${Math.random().toString(36).slice(2, 10)}@example.com`
  const creds = await createTestWorkspace(client, email)
  const post = async (path: string, data: unknown, headers = creds.headers) => {
    const answer = await client.post(path, data, headers)
    expect(answer.status, `${path}: ${answer.text}`).toBe(200)
    return answer.body.result.data
  }
  await post("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
  const endpoint = await post("/v2/workspace/advancedwebhook/endpoints/create", { url: "https://example.com/hooks" })
  const { secret: webhookSecret } = await post("/v2/workspace/advancedwebhook/endpoints/secret/get", { endpointId: endpoint.id })
  await post("/v2/workspace/permissionproviderconfig/update", {
    usePermissionProvider: true,
    permissionProviderConfig: { permissionProviderUrl: "https://example.com/permissions", authToken: PROVIDER_TOKEN }
  })
  const { token: jwt } = await post("/v2/auth/generate_token", TOKEN_REQUEST("u1"))
  await post("/v2/workspace/email/send-login-link", { email, continueUrl: "http://localhost:3000/after" }, {})
  const runtime = atrium.runtime as unknown as { runPromise: <A>(effect: Effect.Effect<A, never, CapturedMail>) => Promise<A> }
  const mails = await runtime.runPromise(Effect.flatMap(CapturedMail, Ref.get))
  const loginToken = new URL(/https?:\/\/\S+/.exec(mails.at(-1)!.text)![0]).searchParams.get("loginToken")!
  return { creds, endpointId: endpoint.id as string, webhookSecret: webhookSecret as string, jwt: jwt as string, loginToken }
}

for (const [name, make] of [["SQLite", async () => sqliteStore()], ["PostgreSQL", pgStore]] as const) {
  describe("secrets at rest", () => {
    const opened: Array<AtriumHandler> = []
    const stores: Array<Store> = []
    const open = (store: Store, encryptionKey?: string) => {
      const atrium = createAtrium({ storage: store.storage(), mailer: CapturedMail.layer, options: { ...(encryptionKey && { encryptionKey }) } })
      opened.push(atrium)
      return atrium
    }
    const fresh = async () => {
      const store = await make()
      stores.push(store)
      return store
    }
    afterAll(async () => {
      for (const atrium of opened) await atrium.dispose()
      for (const store of stores) await store.drop()
    })
    it(`${name}: tokens only compared are hashed; secrets read back are stored as they are without a key`, async () => {
      const store = await fresh()
      const atrium = open(store)
      const secrets = await createSecrets(atrium)
      const dump = await store.dump()
      for (const hashed of [secrets.creds.authToken, secrets.creds.workspaceAuthToken, secrets.loginToken]) expect(dump).not.toContain(hashed)
      // Documented: without ATRIUM_ENCRYPTION_KEY these are readable by whoever reads the database.
      expect(dump).toContain(secrets.webhookSecret)
      expect(dump).toContain(PROVIDER_TOKEN)
      expect(dump).toMatch(PRIVATE_JWK) // the signing key's private part
    })

    it(`${name}: with an encryption key no secret is in clear, and each still works after a restart`, async () => {
      const store = await fresh()
      const atrium = open(store, KEY)
      const secrets = await createSecrets(atrium)
      const dump = await store.dump()
      for (const secret of [secrets.creds.authToken, secrets.creds.workspaceAuthToken, secrets.loginToken, secrets.webhookSecret, PROVIDER_TOKEN]) {
        expect(dump).not.toContain(secret)
      }
      // The signing key's private part and the page-token key: sealed (the JWKS's public key stays readable).
      expect(dump).not.toMatch(PRIVATE_JWK)
      expect(dump).toContain("enc:v1:")
      await atrium.dispose()

      const again = open(store, KEY)
      const client = directClient(again)
      const secret = await client.post("/v2/workspace/advancedwebhook/endpoints/secret/get", { endpointId: secrets.endpointId }, secrets.creds.headers)
      expect(secret.body.result.data.secret).toBe(secrets.webhookSecret)
      const provider = await client.post("/v2/workspace/permissionproviderconfig/get", {}, secrets.creds.headers)
      expect(provider.status).toBe(200)
      const jwt = await client.post("/v2/auth/generate_token", TOKEN_REQUEST("u2"), secrets.creds.headers)
      expect(jwt.status).toBe(200)
      // Signed with the same key as before the restart.
      const kid = (token: string) => JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString()).kid
      expect(kid(jwt.body.result.data.token)).toBe(kid(secrets.jwt))
      await again.dispose()

      // Another key cannot read them: a defect, answered INTERNAL without detail, not a wrong secret.
      const wrong = open(store, OTHER_KEY)
      const refused = await directClient(wrong).post("/v2/workspace/advancedwebhook/endpoints/secret/get", { endpointId: secrets.endpointId }, secrets.creds.headers)
      expect(refused.status).toBeGreaterThanOrEqual(500)
    })
  })
}
