import * as Layer from "effect/Layer"
import { Documents } from "./documents/Documents.js"
import { Organizations } from "./organizations/Organizations.js"
import { Access } from "./protocol/Access.js"
import { PageTokens } from "./protocol/PageTokens.js"
import { RateLimiter } from "./protocol/RateLimiter.js"
import { Workspaces } from "./workspace/Workspaces.js"

/** Protocol services every domain uses. */
export const ProtocolServices = Layer.mergeAll(Access.layer, PageTokens.layer, RateLimiter.layer)

/** Every domain service; each needs the storage port and the protocol services. */
export const DomainServices = Layer.mergeAll(
  Workspaces.Default,
  Organizations.Default,
  Documents.Default
).pipe(Layer.provideMerge(ProtocolServices))
