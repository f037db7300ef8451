import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import {
  AddJudgmentsInput,
  AddJudgmentsResult,
  QueryJudgmentsInput,
  QueryJudgmentsResult,
  SuggestInput,
  SuggestResult
} from "./JudgmentSchemas.js"
import { Judgments } from "./Judgments.js"

export const judgmentOperations = [
  defineOperation({
    name: "memory.judgments.add",
    paths: ["/v2/memory/judgments/add"],
    auth: "apiKey",
    summary: "Record review decisions (judgments); an existing id is replaced. Per-item results.",
    input: AddJudgmentsInput,
    output: AddJudgmentsResult,
    errors: ["INVALID_ARGUMENT"],
    service: Judgments,
    handler: (memory, input, caller) => Effect.map(memory.add(caller.apiKey, input), answer("Judgment(s) processed successfully."))
  }),
  defineOperation({
    name: "memory.judgments.query",
    paths: ["/v2/memory/judgments/query"],
    auth: "apiKey",
    summary: "Read recorded judgments, newest first, with the total number of matches.",
    input: QueryJudgmentsInput,
    output: QueryJudgmentsResult,
    organization: (input) => input.organizationId,
    service: Judgments,
    handler: (memory, input, caller) => memory.query(caller.apiKey, input)
  }),
  defineOperation({
    name: "memory.suggest",
    paths: ["/v2/memory/suggest"],
    auth: "apiKey",
    summary: "Suggest approve or reject for an item from the most relevant past judgments.",
    input: SuggestInput,
    output: SuggestResult,
    organization: (input) => input.organizationId,
    service: Judgments,
    handler: (memory, input, caller) => memory.suggest(caller.apiKey, input)
  })
] as const
