/**
 * The hosted service's three INTERNAL-with-details answers to a client's input, as it gives them
 * and, under `strictStatuses`, as 4xx: the same message, details and writes, another status.
 */
import { expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"

const scenarios = (ctx: () => Started) => {
  const setUp = async () => {
    const creds = await ctx().workspace()
    const post = (path: string, data: unknown) => ctx().client.post(path, data, creds.headers)
    return { post }
  }
  return {
    domainsAdd: async () => {
      const { post } = await setUp()
      await post("/v2/workspace/domains/add", { domains: ["google.com"] })
      const answer = await post("/v2/workspace/domains/add", { domains: ["google.com", "new.com"] })
      const listed = (await post("/v2/workspace/domains/get", {})).body.result.data.allowedDomains
      return { answer, written: [...listed].sort() }
    },
    domainsDelete: async () => {
      const { post } = await setUp()
      await post("/v2/workspace/domains/add", { domains: ["google.com"] })
      const answer = await post("/v2/workspace/domains/delete", { domains: ["google.com", "never.com"] })
      const listed = (await post("/v2/workspace/domains/get", {})).body.result.data.allowedDomains
      return { answer, written: listed }
    },
    documentsAdd: async () => {
      const { post } = await setUp()
      await post("/v2/organizations/documents/add", { organizationId: "o", createOrganization: true, documents: [{ documentId: "old" }] })
      const answer = await post("/v2/organizations/documents/add", { organizationId: "o", documents: [{ documentId: "old" }, { documentId: "new" }] })
      const listed = (await post("/v2/organizations/documents/get", { organizationId: "o" })).body.result.data
      return { answer, written: listed.map((d: { id: string }) => d.id).sort() }
    }
  }
}

const expectDetails = (answer: { body: any }, status: string) => {
  expect(Object.keys(answer.body)).toEqual(["error"])
  expect(answer.body.error.status).toBe(status)
}

forEachBackend("hosted-service statuses (default)", (ctx) => {
  const run = scenarios(ctx)

  it("domains/add with one already allowed: 500 INTERNAL with both lists; the new one is added", async () => {
    const { answer, written } = await run.domainsAdd()
    expect(answer.status).toBe(500)
    expectDetails(answer, "INTERNAL")
    expect(answer.body.error.details).toEqual({ domainsAdded: ["new.com"], skippedDomains: ["google.com"] })
    expect(written).toEqual(["google.com", "new.com"])
  })

  it("domains/delete with one not allowed: 500 INTERNAL with both lists; the other is removed", async () => {
    const { answer, written } = await run.domainsDelete()
    expect(answer.status).toBe(500)
    expectDetails(answer, "INTERNAL")
    expect(answer.body.error.details).toEqual({ domainsRemoved: ["google.com"], skippedDomains: ["never.com"] })
    expect(written).toEqual([])
  })

  it("v2 documents/add with one that exists: 500 INTERNAL with per-item details; the new one is added", async () => {
    const { answer, written } = await run.documentsAdd()
    expect(answer.status).toBe(500)
    expectDetails(answer, "INTERNAL")
    expect(answer.body.error.message).toBe("Error adding document(s).")
    expect(answer.body.error.details.old).toMatchObject({ success: false, message: "Document already exists.", code: "already-exists" })
    expect(answer.body.error.details.new).toMatchObject({ success: true, message: "Added Successfully" })
    expect(written).toEqual(["new", "old"])
  })
})

forEachBackend("strict statuses", (ctx) => {
  const run = scenarios(ctx)

  it("domains/add with one already allowed: 409 ALREADY_EXISTS, the same lists and writes", async () => {
    const { answer, written } = await run.domainsAdd()
    expect(answer.status).toBe(409)
    expectDetails(answer, "ALREADY_EXISTS")
    expect(answer.body.error).toEqual({
      status: "ALREADY_EXISTS",
      message: "Domain(s) added successfully to allowed domains. Skipped existing domains.",
      details: { domainsAdded: ["new.com"], skippedDomains: ["google.com"] }
    })
    expect(written).toEqual(["google.com", "new.com"])
  })

  it("domains/delete with one not allowed: 404 NOT_FOUND, the same lists and writes", async () => {
    const { answer, written } = await run.domainsDelete()
    expect(answer.status).toBe(404)
    expectDetails(answer, "NOT_FOUND")
    expect(answer.body.error.details).toEqual({ domainsRemoved: ["google.com"], skippedDomains: ["never.com"] })
    expect(written).toEqual([])
  })

  it("v2 documents/add with one that exists: 409 ALREADY_EXISTS, the same details and writes", async () => {
    const { answer, written } = await run.documentsAdd()
    expect(answer.status).toBe(409)
    expectDetails(answer, "ALREADY_EXISTS")
    expect(answer.body.error.details.old).toMatchObject({ code: "already-exists" })
    expect(written).toEqual(["new", "old"])
  })

  it("changes no other answer: a malformed domain is still 400 INVALID_ARGUMENT", async () => {
    const answer = await ctx().client.post("/v2/workspace/domains/add", { domains: ["bad domain"] }, (await ctx().workspace()).headers)
    expect(answer.status).toBe(400)
  })
}, { options: { strictStatuses: true } })
