import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import {
  AddFoldersInput,
  AddFoldersResult,
  DeleteFolderInput,
  FolderAccessResult,
  FolderDeletionResult,
  FoldersResult,
  GetFoldersInput,
  UpdateFolderAccessInput,
  UpdateFoldersInput
} from "./FolderSchemas.js"
import { Folders } from "./Folders.js"

export const folderOperations = [
  defineOperation({
    name: "organizations.folders.add",
    paths: ["/v2/organizations/folders/add"],
    auth: "apiKey",
    summary: "Add folders under root or an existing folder; without accessType a folder inherits its parent's.",
    input: AddFoldersInput,
    output: AddFoldersResult,
    errors: ["NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: Folders,
    handler: (folders, input, caller) => Effect.map(folders.add(caller.apiKey, input), answer("Folder created successfully."))
  }),
  defineOperation({
    name: "organizations.folders.get",
    paths: ["/v2/organizations/folders/get"],
    auth: "apiKey",
    summary: "Get one folder with its subfolders to maxDepth levels, or every folder of the organization.",
    input: GetFoldersInput,
    output: FoldersResult,
    errors: ["NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: Folders,
    handler: (folders, input, caller) => Effect.map(folders.get(caller.apiKey, input), answer("Folder(s) retrieved successfully."))
  }),
  defineOperation({
    name: "organizations.folders.update",
    paths: ["/v2/organizations/folders/update"],
    auth: "apiKey",
    summary: "Rename folders or move them under another parent; a move recomputes the subtree's ancestors and inherited access types. A missing folder or parent fails its item.",
    input: UpdateFoldersInput,
    output: AddFoldersResult,
    organization: (input) => input.organizationId,
    service: Folders,
    handler: (folders, input, caller) => Effect.map(folders.update(caller.apiKey, input), answer("Folder Updated successfully."))
  }),
  defineOperation({
    name: "organizations.folders.delete",
    paths: ["/v2/organizations/folders/delete"],
    auth: "apiKey",
    summary: "Delete a folder, its subfolders, and every document in them with all their data; a missing folder is NOT_FOUND.",
    input: DeleteFolderInput,
    output: FolderDeletionResult,
    errors: ["NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: Folders,
    handler: (folders, input, caller) =>
      Effect.as(folders.delete(caller.apiKey, input), { status: "success" as const, message: "Folder deletion initiated successfully.", data: null })
  }),
  defineOperation({
    name: "organizations.folders.access.update",
    paths: ["/v2/organizations/folders/access/update"],
    auth: "apiKey",
    summary: "Give folders an access type of their own, or make them follow their parent's; the subfolders that follow them are recomputed. A missing folder fails its item.",
    input: UpdateFolderAccessInput,
    output: FolderAccessResult,
    organization: (input) => input.organizationId,
    service: Folders,
    handler: (folders, input, caller) => Effect.map(folders.updateAccess(caller.apiKey, input), answer("Updated access for folders successfully."))
  })
] as const
