import * as Layer from "effect/Layer"
import { defineDomain } from "../Domain.js"
import { DocumentAccess } from "./DocumentAccess.js"
import { accessOperations } from "./operations.js"
import { PermissionProvider } from "./PermissionProvider.js"
import { Permissions } from "./Permissions.js"
import { SqlAccessRepo } from "./SqlAccessRepo.js"

/** Who may read or write which document: the one rule, its facts from storage, and the permission provider. */
export const accessDomain = defineDomain({
  name: "access",
  operations: accessOperations,
  services: [Permissions.Default.pipe(Layer.provideMerge(DocumentAccess.Default), Layer.provideMerge(PermissionProvider.layer))],
  repositories: [SqlAccessRepo]
})
