import * as Schema from "effect/Schema"
import { AccessTypeSchema } from "../folders/FolderSchemas.js"
import { SuccessResult } from "../protocol/Envelope.js"
import { Email, IntRange, isHttpUrl, NonEmptyList, NonEmptyText, optional, Text } from "../schema/Common.js"
import { normalizeDomain } from "./Domains.js"

// ---- Allowed domains --------------------------------------------------------------------------

/** A full URL or a bare domain (docs/compatibility.md, "Workspace settings"); anything `normalizeDomain` refuses is named in the error. */
const DomainEntry = Text(2000).pipe(
  Schema.filter((entry) => normalizeDomain(entry) !== undefined || `"${entry}" is not a valid domain`)
)

/** 1 to 100 entries (spec Limits: "Domains per delete call"; the hosted service's cap for add). */
export const DomainsInput = Schema.Struct({
  domains: NonEmptyList(DomainEntry, 100)
})

const Domains = Schema.Array(Schema.String)

export const AddDomainsResult = SuccessResult(Schema.Struct({ domainsAdded: Domains }))
export const GetDomainsResult = SuccessResult(Schema.Struct({ allowedDomains: Domains }))
export const DeleteDomainsResult = SuccessResult(Schema.Struct({ domainsRemoved: Domains }))

// ---- Permission provider ----------------------------------------------------------------------

export const PermissionProviderSettings = Schema.Struct({
  usePermissionProvider: Schema.Boolean,
  permissionProviderConfig: Schema.Struct({
    permissionProviderUrl: Schema.String,
    /** Masked in every answer: `maskAuthToken` in PermissionProviderConfig.ts. */
    authToken: Schema.String
  })
}).annotations({ identifier: "PermissionProviderSettings" })

/** "" (not configured) or an http(s) URL (docs/compatibility.md, "Workspace settings"). */
const ProviderUrl = Text(2000).pipe(
  Schema.filter((value) => value === "" || isHttpUrl(value) || "Please enter a valid URL")
)

export const UpdatePermissionProviderInput = Schema.Struct({
  usePermissionProvider: optional(Schema.Boolean),
  permissionProviderConfig: optional(Schema.Struct({
    permissionProviderUrl: optional(ProviderUrl),
    authToken: optional(Text(2000))
  }))
})

export const PermissionProviderResult = SuccessResult(PermissionProviderSettings)

// ---- Notification service ---------------------------------------------------------------------

/** Trigger name → on/off, e.g. `{ add: true, reaction: false }` (also basic webhooks': `{ "comment.add": false }`). */
export const Triggers = Schema.Record({ key: NonEmptyText(100), value: Schema.Boolean })

const BatchScope = Schema.Struct({ isEnabled: Schema.Boolean, batchWindowSeconds: Schema.Number, maxActivities: Schema.Number })

export const NotificationServiceSettings = Schema.Struct({
  useNotificationService: Schema.Boolean,
  notificationServiceConfig: Schema.Struct({
    triggers: Schema.Struct({ comment: Triggers, huddle: Triggers }),
    delayConfig: Schema.Struct({ isEnabled: Schema.Boolean, delaySeconds: Schema.Number }),
    batchConfig: Schema.Struct({ document: BatchScope, user: BatchScope })
  })
}).annotations({ identifier: "NotificationServiceSettings" })

/** Spec Limits: batchWindowSeconds 10..604800, maxActivities 2..50, integers (docs/compatibility.md, "Workspace settings"). */
const BatchScopeUpdate = Schema.Struct({
  isEnabled: optional(Schema.Boolean),
  batchWindowSeconds: optional(IntRange(10, 604_800)),
  maxActivities: optional(IntRange(2, 50))
})

/** Every key optional at every depth: the update is merged over the stored settings. */
export const UpdateNotificationServiceInput = Schema.Struct({
  useNotificationService: optional(Schema.Boolean),
  notificationServiceConfig: optional(Schema.Struct({
    triggers: optional(Schema.Struct({ comment: optional(Triggers), huddle: optional(Triggers) })),
    /** Spec Limits: delaySeconds 10..15552000 (6 months), an integer. */
    delayConfig: optional(Schema.Struct({ isEnabled: optional(Schema.Boolean), delaySeconds: optional(IntRange(10, 15_552_000)) })),
    batchConfig: optional(Schema.Struct({ document: optional(BatchScopeUpdate), user: optional(BatchScopeUpdate) }))
  }))
})

export const NotificationServiceResult = SuccessResult(NotificationServiceSettings)

// ---- Activity service ------------------------------------------------------------------------

export const ActivityServiceSettings = Schema.Struct({
  activityServiceConfig: Schema.Struct({
    isEnabled: Schema.Boolean,
    /** On: activities/update and activities/delete are refused (erasure still removes activities). */
    immutable: Schema.Boolean,
    /** When the log was first enabled (ms), stamped by that update. */
    enabledTime: optional(Schema.Number),
    /** Comment action types (`comment_annotation.add`, `comment.add`) → whether `triggerActivities` records them. */
    triggers: Schema.Struct({ comment: Triggers })
  })
}).annotations({ identifier: "ActivityServiceSettings" })

/** activityconfig/update: `activityServiceConfig` required with at least one field, merged over the stored settings. */
export const UpdateActivityServiceInput = Schema.Struct({
  activityServiceConfig: Schema.Struct({
    isEnabled: optional(Schema.Boolean),
    enabledTime: optional(Schema.Number.pipe(Schema.int(), Schema.nonNegative())),
    immutable: optional(Schema.Boolean),
    triggers: optional(Schema.Struct({ comment: optional(Triggers) }))
  }).pipe(Schema.filter((config) =>
    Object.values(config).some((value) => value !== undefined) ||
    "Invalid activity service configuration: at least one of isEnabled, enabledTime, immutable or triggers must be provided."
  ))
})

export const ActivityServiceResult = SuccessResult(ActivityServiceSettings)

// ---- Email service ----------------------------------------------------------------------------

/**
 * The link an email points to, with `{organizationId}`, `{documentId}`, `{annotationId}` and
 * `{notificationId}` filled in (URL-encoded); an http(s) URL once they are (an Atrium extension:
 * docs/notifications.md, "Email").
 */
const LinkTemplate = Text(2000).pipe(
  Schema.filter((value) => value === "" || isHttpUrl(value.replace(/\{\w+\}/g, "x")) || "linkTemplate must be an http(s) URL, e.g. https://app.example.com/{documentId}#{annotationId}")
)

export const EmailServiceSettings = Schema.Struct({
  useEmailService: Schema.Boolean,
  emailServiceConfig: Schema.Struct({
    type: Schema.Literal("default"),
    fromEmail: optional(Schema.String),
    fromCompany: optional(Schema.String),
    commentTemplateId: optional(Schema.String),
    tagTemplateId: optional(Schema.String),
    linkTemplate: optional(Schema.String),
    triggers: Schema.Struct({ comment: Triggers })
  })
}).annotations({ identifier: "EmailServiceSettings" })

/**
 * emailconfig/update: merged over the stored settings. `type` is `default` only: Atrium sends
 * through its own SMTP server (ATRIUM_SMTP_URL), never SendGrid, so a SendGrid key is refused
 * rather than kept unused (docs/decisions.md, "Notifications").
 */
export const UpdateEmailServiceInput = Schema.Struct({
  useEmailService: optional(Schema.Boolean),
  emailServiceConfig: optional(Schema.Struct({
    type: optional(Schema.Literal("default").annotations({ message: () => "Invalid email service configuration: type must be \"default\" (Atrium mails through its SMTP server, ATRIUM_SMTP_URL; SendGrid is not supported)" })),
    fromEmail: optional(Email),
    fromCompany: optional(Text(200)),
    commentTemplateId: optional(Text(200)),
    tagTemplateId: optional(Text(200)),
    linkTemplate: optional(LinkTemplate),
    triggers: optional(Schema.Struct({ comment: optional(Triggers) }))
  }))
})

export const EmailServiceResult = SuccessResult(EmailServiceSettings)

// ---- API key config ---------------------------------------------------------------------------

/** apikeyconfig/get: the settings Atrium acts on (docs/decisions.md, "Access"). */
export const ApiKeyConfigSettings = Schema.Struct({ defaultDocumentAccessType: AccessTypeSchema }).annotations({ identifier: "ApiKeyConfig" })

/** apikeyconfig/update: the fields to write (at least one: checked by the service, for the facts' message). */
export const UpdateApiKeyConfigInput = Schema.Struct({ defaultDocumentAccessType: optional(AccessTypeSchema) })

export const ApiKeyConfigResult = SuccessResult(ApiKeyConfigSettings)
/** update echoes the fields it wrote. */
export const UpdateApiKeyConfigResult = SuccessResult(Schema.partial(ApiKeyConfigSettings))

// ---- Login link -------------------------------------------------------------------------------

export const SendLoginLinkInput = Schema.Struct({
  email: Email,
  /** Checked by the service (for the hosted service's messages), after decoding. */
  continueUrl: Text(2000)
})

export const LoginLinkResult = SuccessResult(Schema.Null)

export const EmailStatusInput = Schema.Struct({ ownerEmail: Email })

export const EmailStatusResult = SuccessResult(Schema.Struct({ verified: Schema.Boolean }))
