import * as Layer from "effect/Layer"
import { defineDomain } from "../Domain.js"
import { DocumentAccess } from "./DocumentAccess.js"
import { PermissionProvider } from "./PermissionProvider.js"
import { SqlAccessRepo } from "./SqlAccessRepo.js"

/** Who may read or write which document: the one rule, its facts from storage, and the permission provider. */
export const accessDomain = defineDomain({
  name: "access",
  // Issue 23: its operations (auth/permissions/*, document and folder access) come next.
  operations: [],
  services: [DocumentAccess.Default.pipe(Layer.provideMerge(PermissionProvider.layer))],
  repositories: [SqlAccessRepo]
})
