/**
 * The names of the spans an effect opens, in order: the current tracer still makes and ends
 * them, this only listens. Used to see whether a statement took @effect/sql's traced path.
 */
import * as Effect from "effect/Effect"
import * as Tracer from "effect/Tracer"

export const recordingSpans = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<[A, Array<string>], E, R> =>
  Effect.tracerWith((tracer) => {
    const names: Array<string> = []
    const listening = Tracer.make({
      span: (name, ...rest) => {
        names.push(name)
        return tracer.span(name, ...rest)
      },
      context: tracer.context
    })
    return Effect.map(Effect.withTracer(effect, listening), (value): [A, Array<string>] => [value, names])
  })
