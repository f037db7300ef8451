import { type Domain, domains } from "./domains.js"

/** The operation table: every operation Atrium answers, declared once in its domain, in the domains' order. */
export const operations: ReadonlyArray<Domain["operations"][number]> = domains.flatMap<Domain["operations"][number]>((domain) => domain.operations)
