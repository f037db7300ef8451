import * as Layer from "effect/Layer"
import { defineDomain } from "../Domain.js"
import { DocumentAccess } from "./DocumentAccess.js"
import { clientAccessOperations } from "./clientOperations.js"
import { accessOperations } from "./operations.js"
import { PermissionProvider } from "./PermissionProvider.js"
import { Permissions } from "./Permissions.js"
import { SqlAccessRepo } from "./SqlAccessRepo.js"
import { TokenAccess } from "./TokenAccess.js"

/** Who may read or write which document: the one rule, its facts from storage, and the permission provider. */
export const accessDomain = defineDomain({
  name: "access",
  operations: [...accessOperations, ...clientAccessOperations],
  shared: [DocumentAccess.Default.pipe(Layer.provideMerge(PermissionProvider.layer))],
  services: [Permissions.Default, TokenAccess.Default],
  repositories: [SqlAccessRepo]
})
