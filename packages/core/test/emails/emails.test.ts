/**
 * Notification email (issue 26, docs/notifications.md "Email"), through the real SMTP mailer to a
 * real SMTP server on loopback, over every storage: who is mailed (preferences, addresses,
 * access), what the email says, the workspace's email settings, retries and failures for good,
 * and login links through the same mailer. Delay, the seen check and digests: delay.test.ts.
 */
import * as Layer from "effect/Layer"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { type MailServer, startMailServer } from "../../../../test-support/smtp.js"
import type { TestCredentials } from "../../src/testing/index.js"

let smtp: MailServer
beforeAll(async () => {
  smtp = await startMailServer()
})
afterAll(() => smtp.close())
beforeEach(() => {
  smtp.refuse = () => undefined
})

/** The mailer is made when each backend starts, after the mail server is up. */
const mailer = Layer.suspend(() => smtp.mailer())

forEachBackend("notification email", (ctx: () => Started) => {
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const refused = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    expect(answer.status, answer.text).toBe(400)
    return answer.body.error.message as string
  }
  /** Mails to these addresses (ours are unique per test), once every due email was sent. */
  const mailsTo = async (...addresses: ReadonlyArray<string>) => {
    await ctx().atrium.runDue()
    return smtp.mails.filter((mail) => mail.to.some((to) => addresses.includes(to)))
  }
  let run = 0
  /** A workspace whose users (ann, bob, cat, dan; dan has no address) are members of "org", with "open" (public) and "secret" (restricted, nobody granted). */
  const workspace = async () => {
    const creds = await ctx().workspace()
    const tag = `${++run}-${Math.random().toString(36).slice(2, 8)}`
    const address = (userId: string) => `${userId}-${tag}@example.com`
    await ok(creds, "/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "closed", accessType: "restricted" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "closed", documents: [{ documentId: "secret" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "open" }] })
    await ok(creds, "/v2/users/add", {
      organizationId: "org",
      users: [
        { userId: "ann", name: "Ann Lee", email: address("ann") },
        { userId: "bob", name: "Bob Roe", email: address("bob") },
        { userId: "cat", name: "Cat Poe", email: address("cat") },
        { userId: "dan", name: "Dan Doe" }
      ]
    })
    return { creds, address, all: ["ann", "bob", "cat", "dan"].map(address) }
  }
  /** ann starts a thread on `documentId` mentioning `mentioned`. */
  const thread = (creds: TestCredentials, documentId: string, mentioned: ReadonlyArray<string>, text = "Please look <here> & there") =>
    ok(creds, "/v2/commentannotations/add", {
      organizationId: "org",
      documentId,
      commentAnnotations: [{
        annotationId: `t-${Math.random().toString(36).slice(2, 8)}`,
        commentData: [{
          commentText: text,
          from: { userId: "ann", name: "Ann Lee" },
          taggedUserContacts: mentioned.map((userId) => ({ userId, text: `@${userId}` })),
          triggerNotification: true
        }]
      }]
    })

  it("a mention mails the mentioned user a readable email: who did what where, the comment, a link", async () => {
    const { address, all, creds } = await workspace()
    await ok(creds, "/v2/workspace/emailconfig/update", {
      emailServiceConfig: { fromEmail: "notify@acme.example", fromCompany: "Acme", linkTemplate: "https://app.acme.example/d/{documentId}?thread={annotationId}" }
    })
    await thread(creds, "open", ["bob"])
    const mails = await mailsTo(...all)
    expect(mails.map((mail) => mail.to)).toEqual([[address("bob")]])
    const [mail] = mails
    expect(mail!.parsed.from?.value).toEqual([{ name: "Acme", address: "notify@acme.example" }])
    expect(mail!.subject).toBe("Ann Lee started a comment thread (open)")
    expect(mail!.text).toContain("Ann Lee started a comment thread (open)")
    expect(mail!.text).toContain("\"Please look <here> & there\"")
    expect(mail!.text).toMatch(/https:\/\/app\.acme\.example\/d\/open\?thread=t-\w+/)
    // The HTML part escapes the comment.
    expect(mail!.html).toContain("Please look &lt;here&gt; &amp; there")
    expect(mail!.html).toMatch(/<a href="https:\/\/app\.acme\.example\/d\/open\?thread=t-\w+">/)
  })

  it("who is mailed: MINE and ALL of those involved, ALL of the others who may read the document; never NONE, the actor, nor a user without an address", async () => {
    const { address, all, creds } = await workspace()
    // eve may read "open" only (a grant on it); cat and eve stored ALL for the organization.
    await ok(creds, "/v2/users/add", { organizationId: "org", documentId: "open", users: [{ userId: "eve", email: address("eve") }] })
    await ok(creds, "/v2/notifications/config/set", { organizationId: "org", userIds: ["cat", "eve"], config: { email: "ALL" } })
    const to = [...all, address("eve")]
    const newMails = async (since: number) => (await mailsTo(...to)).slice(since).map((mail) => mail.to[0]).sort()
    await thread(creds, "open", ["bob", "dan", "ann"])
    expect(await newMails(0)).toEqual([address("bob"), address("cat"), address("eve")])
    // bob turns email off for the document; cat keeps ALL for the organization but sets MINE there.
    await ok(creds, "/v2/notifications/config/set", { organizationId: "org", userIds: ["bob"], documentIds: ["open"], config: { email: "NONE" } })
    await ok(creds, "/v2/notifications/config/set", { organizationId: "org", userIds: ["cat"], documentIds: ["open"], config: { email: "MINE" } })
    await thread(creds, "open", ["bob"])
    expect(await newMails(3)).toEqual([address("eve")])
    // "secret" is restricted: the organization's members read it through their grant, eve does not.
    await thread(creds, "secret", ["bob"])
    expect(await newMails(4)).toEqual([address("bob"), address("cat")])
  })

  it("a workspace that turns email off mails nobody; settings are validated and echoed", async () => {
    const { all, creds } = await workspace()
    expect((await ok(creds, "/v2/workspace/emailconfig/get", {})).data).toEqual({ useEmailService: true, emailServiceConfig: { type: "default", triggers: { comment: {} } } })
    expect(await refused(creds, "/v2/workspace/emailconfig/update", {})).toMatch(/Invalid email service configuration/)
    expect(await refused(creds, "/v2/workspace/emailconfig/update", { emailServiceConfig: { type: "sendgrid" } })).toMatch(/type must be "default"/)
    expect(await refused(creds, "/v2/workspace/emailconfig/update", { emailServiceConfig: { linkTemplate: "javascript:alert(1)" } })).toMatch(/linkTemplate must be an http\(s\) URL/)
    const off = await ok(creds, "/v2/workspace/emailconfig/update", { useEmailService: false, emailServiceConfig: { triggers: { comment: { reply: false } } } })
    expect(off.data).toEqual({ useEmailService: false, emailServiceConfig: { type: "default", triggers: { comment: { reply: false } } } })
    await thread(creds, "open", ["bob"])
    expect(await mailsTo(...all)).toEqual([])
  })

  it("an email trigger turned off mails none of that kind; the inbox still gets it", async () => {
    const { address, all, creds } = await workspace()
    await ok(creds, "/v2/workspace/emailconfig/update", { emailServiceConfig: { triggers: { comment: { add: false } } } })
    await thread(creds, "open", ["bob"])
    expect(await mailsTo(...all)).toEqual([])
    expect((await ok(creds, "/v2/notifications/get", { organizationId: "org", userId: "bob" })).data).toHaveLength(1)
    await ok(creds, "/v2/notifications/add", {
      organizationId: "org",
      documentId: "open",
      notifyUsers: [{ userId: "cat" }],
      notifyAll: false,
      actionUser: { userId: "ci", name: "CI" },
      displayHeadlineMessageTemplate: "Build {build} failed",
      displayHeadlineMessageTemplateData: { build: "#42" },
      displayBodyMessage: "See the log."
    })
    const mails = await mailsTo(...all)
    expect(mails.map((mail) => [mail.to[0], mail.subject])).toEqual([[address("cat"), "Build #42 failed (open)"]])
  })

  it("an SMTP server that refuses for now is tried again; one that refuses the recipient for good is not", async () => {
    const { address, all, creds } = await workspace()
    const refusedBefore = smtp.refused
    smtp.refuse = ({ to }) => to.includes(address("bob")) ? 451 : to.includes(address("cat")) ? 550 : undefined
    await thread(creds, "open", ["bob", "cat"])
    expect(await mailsTo(...all)).toEqual([])
    expect(smtp.refused - refusedBefore).toBe(2)
    smtp.refuse = () => undefined
    // bob's is due again 30 s later (the schedule's second delay), not before.
    expect(await mailsTo(...all)).toEqual([])
    expect(smtp.refused - refusedBefore).toBe(2)
  })
}, { mailer })
