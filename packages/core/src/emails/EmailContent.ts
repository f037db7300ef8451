import type { NotificationRow } from "../notifications/NotificationsRepo.js"
import type { Mail } from "../ports/Mailer.js"
import type { EmailService } from "../workspace/EmailServiceConfig.js"

/** A person or a value as a headline shows it: a user by their name, else their id. */
const shown = (value: unknown): string => {
  if (typeof value === "object" && value !== null) {
    const user = value as { readonly name?: unknown; readonly userId?: unknown }
    return typeof user.name === "string" && user.name !== "" ? user.name : String(user.userId ?? "someone")
  }
  return value === undefined ? "" : String(value)
}

/** `template` with each `{name}` that `value` knows replaced by what it gives; the others left as they are. */
const fill = (template: string, value: (name: string) => string | undefined) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => value(name) ?? whole)

/** The notification's headline: its template with `{name}` filled from its data (`{actionUser}`: who did it). */
export const headlineOf = (row: NotificationRow): string => {
  const { actionUser, displayHeadlineMessageTemplate, displayHeadlineMessageTemplateData } = row.record
  const template = displayHeadlineMessageTemplate ?? "New notification"
  const data: Record<string, unknown> = { ...(actionUser !== undefined && { actionUser }), ...displayHeadlineMessageTemplateData }
  return fill(template, (name) => name in data ? shown(data[name]) : undefined)
}

/** Where the email points: the workspace's link template filled in, else the thread's page, else nowhere. */
export const linkOf = (row: NotificationRow, linkTemplate: string | undefined): string | undefined => {
  if (linkTemplate !== undefined && linkTemplate !== "") {
    const values: Record<string, string> = {
      organizationId: row.organizationId,
      documentId: row.documentId,
      annotationId: row.annotationId ?? "",
      notificationId: row.id
    }
    return fill(linkTemplate, (name) => name in values ? encodeURIComponent(values[name]!) : undefined)
  }
  const url = (row.record.location as { readonly url?: unknown } | undefined)?.url
  return typeof url === "string" && /^https?:\/\//.test(url) ? url : undefined
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

/** The sender the workspace set (`fromCompany` <`fromEmail`>), else none: the mailer's own. */
const senderOf = (config: EmailService["emailServiceConfig"]): string | undefined =>
  config.fromEmail === undefined ? undefined : config.fromCompany ? `"${config.fromCompany.replace(/["\\\r\n]/g, "")}" <${config.fromEmail}>` : config.fromEmail

interface Entry {
  readonly headline: string
  readonly body: string
  readonly documentId: string
  readonly link: string | undefined
}

const entryOf = (row: NotificationRow, config: EmailService["emailServiceConfig"]): Entry => ({
  headline: headlineOf(row),
  body: row.record.displayBodyMessage ?? "",
  documentId: row.documentId,
  link: linkOf(row, config.linkTemplate)
})

const textOf = (entry: Entry, bullet: string) =>
  [`${bullet}${entry.headline} (${entry.documentId})`, ...(entry.body !== "" ? [`  "${entry.body}"`] : []), ...(entry.link ? [`  ${entry.link}`] : [])].join("\n")

const htmlOf = (entry: Entry) =>
  `<p><strong>${escapeHtml(entry.headline)}</strong> <span style="color:#666">(${escapeHtml(entry.documentId)})</span></p>` +
  (entry.body !== "" ? `<blockquote style="margin:0 0 8px;padding-left:8px;border-left:3px solid #ccc">${escapeHtml(entry.body)}</blockquote>` : "") +
  (entry.link ? `<p><a href="${escapeHtml(entry.link)}">Open</a></p>` : "")

const FOOTER = "You get this email because of your notification settings. Change them in the app."

/**
 * The email of one notification, or the digest of several (docs/notifications.md, "Email"): who
 * did what where, the comment's text, a link; plain text and HTML alike.
 */
export const composeMail = (
  to: string,
  rows: ReadonlyArray<NotificationRow>,
  scope: "single" | "document" | "user",
  config: EmailService["emailServiceConfig"]
): Mail => {
  const entries = rows.map((row) => entryOf(row, config))
  const from = senderOf(config)
  const subject = entries.length === 1
    ? `${entries[0]!.headline} (${entries[0]!.documentId})`
    : scope === "document"
    ? `${entries.length} new notifications in ${entries[0]!.documentId}`
    : `${entries.length} new notifications`
  const text = entries.length === 1
    ? `${textOf(entries[0]!, "")}\n\n${FOOTER}\n`
    : `${subject}:\n\n${entries.map((entry) => textOf(entry, "- ")).join("\n\n")}\n\n${FOOTER}\n`
  const html = `<!doctype html><html><body style="font-family:sans-serif">` +
    (entries.length === 1 ? "" : `<h2 style="font-size:16px">${escapeHtml(subject)}</h2>`) +
    entries.map(htmlOf).join("<hr>") +
    `<p style="color:#888;font-size:12px">${FOOTER}</p></body></html>`
  return { ...(from !== undefined && { from }), to, subject, text, html }
}
