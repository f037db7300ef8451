import * as Layer from "effect/Layer"
import { defineDomain } from "../Domain.js"
import { DocumentAccess } from "./DocumentAccess.js"
import { clientAccessOperations } from "./clientOperations.js"
import { accessOperations } from "./operations.js"
import { PermissionProvider } from "./PermissionProvider.js"
import { Permissions } from "./Permissions.js"
import { SqlAccessRepo } from "./SqlAccessRepo.js"
import { TokenAccess } from "./TokenAccess.js"

/** The access rule with the permission provider it asks: one instance, shared by the domains and the listeners that judge recipients. */
export const DocumentAccessLayer = DocumentAccess.Default.pipe(Layer.provideMerge(PermissionProvider.layer))

/** Who may read or write which document: the one rule, its facts from storage, and the permission provider. */
export const accessDomain = defineDomain({
  name: "access",
  operations: [...accessOperations, ...clientAccessOperations],
  shared: [DocumentAccessLayer],
  services: [Permissions.Default, TokenAccess.Default],
  repositories: [SqlAccessRepo],
  otherTables: [{ name: "access_versions", why: "a counter per key that the access facts' triggers raise (migration 0014)" }]
})
