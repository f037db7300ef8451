import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AtriumConfig } from "../Config.js"
import { Ids } from "../ports/Ids.js"
import { Emails } from "./Emails.js"

/**
 * The email worker of a long-running server: every `emails.pollIntervalMillis`, composes the
 * emails whose delay or digest ended and sends those due (docs/notifications.md, "Email"). When
 * its scope closes, it hands back the emails it holds, so another server sends them at once.
 */
export const EmailWorker = (options: { readonly owner?: string } = {}) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    const emails = yield* Emails
    const { pollIntervalMillis } = (yield* AtriumConfig).emails
    const owner = options.owner ?? (yield* (yield* Ids).make("mailer"))
    yield* Effect.addFinalizer(() =>
      emails.releaseAll(owner).pipe(Effect.catchAllCause((cause) => Effect.logError("Email worker: handing back at stop failed.", cause)))
    )
    yield* Effect.forkScoped(Effect.forever(
      emails.runDue(owner).pipe(
        Effect.catchAllCause((cause) => Effect.logError("Email worker: a pass failed.", cause)),
        Effect.zipRight(Effect.sleep(pollIntervalMillis))
      )
    ))
  }))
