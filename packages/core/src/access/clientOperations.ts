import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { ClientAccessInput, ClientAccessResult } from "./ClientAccessSchemas.js"
import { DocumentAccess, questionOf } from "./DocumentAccess.js"

/** The client API's access operation (spec client-api.md, "Access"): the acting user's role, by the one rule. */
export const clientAccessOperations = [
  defineOperation({
    name: "client.access.get",
    paths: ["/v2/client/access/get"],
    auth: "user",
    summary: "The acting user's role on each document (editor, viewer or null), as the access rule decides it now.",
    input: ClientAccessInput,
    output: ClientAccessResult,
    organization: (input) => input.organizationId,
    service: DocumentAccess,
    handler: (access, input, caller) =>
      Effect.map(
        Effect.forEach(input.documentIds, (documentId) =>
          Effect.map(
            access.check(questionOf(caller, input.organizationId, documentId)),
            (decision) => [documentId, { accessRole: decision.accessRole }] as const
          )),
        (entries) => answer("Access retrieved successfully.")(Object.fromEntries(entries))
      )
  })
] as const
