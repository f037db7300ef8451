/** The cap on endpoints per API key (`webhooks.endpointsPerKey`), on every storage, under concurrent creates too. */
import type { TestCredentials } from "@atrium/core/testing"
import { expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"

const CREATE = "/v2/workspace/advancedwebhook/endpoints/create"
const LIST = "/v2/workspace/advancedwebhook/endpoints/get"
const DELETE = "/v2/workspace/advancedwebhook/endpoints/delete"

const CAP = 3
const FULL = `An API key may have at most ${CAP} advanced webhook endpoints and this one has ${CAP}: delete one before creating another.`

forEachBackend("the endpoint cap", (ctx) => {
  const post = (creds: TestCredentials, path: string, data: unknown) => ctx().client.post(path, data, creds.headers)
  const create = (creds: TestCredentials, n: number) => post(creds, CREATE, { url: `https://example.com/hooks/${n}` })

  const enabledKey = async () => {
    const creds = await ctx().workspace()
    expect((await post(creds, "/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })).status).toBe(200)
    return creds
  }

  const listed = async (creds: TestCredentials) => (await post(creds, LIST, {})).body.result.data.endpoints as Array<{ id: string }>

  it("refuses one endpoint more than the cap with FAILED_PRECONDITION naming the cap and the count; a delete makes room", async () => {
    const creds = await enabledKey()
    for (let n = 0; n < CAP; n++) expect((await create(creds, n)).status).toBe(200)
    const refused = await create(creds, CAP)
    expect(refused.status).toBe(400)
    expect(refused.body.error).toEqual({ status: "FAILED_PRECONDITION", message: FULL })
    expect(await listed(creds)).toHaveLength(CAP)

    const [first] = await listed(creds)
    expect((await post(creds, DELETE, { endpointId: first!.id })).status).toBe(200)
    expect((await create(creds, CAP)).status).toBe(200)
    expect((await create(creds, CAP + 1)).status).toBe(400)
  })

  it("counts each API key's endpoints apart", async () => {
    const full = await enabledKey()
    for (let n = 0; n < CAP; n++) expect((await create(full, n)).status).toBe(200)
    const other = await enabledKey()
    expect((await create(other, 0)).status).toBe(200)
  })

  it("lets 20 concurrent creates make exactly the cap, never more", async () => {
    const creds = await enabledKey()
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => create(creds, n)))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(CAP)
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.body.error).toEqual({ status: "FAILED_PRECONDITION", message: FULL })
    }
    expect(await listed(creds)).toHaveLength(CAP)
  })
}, { options: { webhooks: { endpointsPerKey: CAP } } })
