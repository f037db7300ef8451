import type * as Statement from "@effect/sql/Statement"
import { segmentsOf } from "./SqlInternals.js"

/** A statement's SQL text and its parameters, in order: what a driver is handed. */
export type Compiled = readonly [sql: string, params: ReadonlyArray<unknown>]

// Marks in a shape that cannot be mistaken for a literal's text (a string).
const PARAMETER = {}
const IDENTIFIER = {}
const ARRAY = {}

class Shape {
  readonly next = new Map<unknown, Shape>()
  sql: string | undefined = undefined
}

/**
 * Compiles statements by their shape. A statement written as a template is a list of segments:
 * its literal text (the template's own strings, the very same string objects on every call),
 * parameters, `sql.in` lists and identifiers. Two statements with the same segments but for the
 * parameters' values (and `sql.in` lists of one length) have the same SQL text, so the text is
 * compiled once, by @effect/sql's own compiler, and every later statement of that shape only
 * collects its parameters. The same text object each time also keeps its hash, which makes a
 * prepared-statement cache lookup cheap. Statements with any other segment (insert and update
 * helpers, custom values) are compiled by @effect/sql every time. Measured in docs/benchmarks.md.
 *
 * `maxShapes` bounds the memory: past it the shapes are forgotten and learned again. A shape
 * never holds a request's values, only the code's own text and list lengths.
 */
export const makeStatementShapes = (maxShapes = 5_000) => {
  let root = new Shape()
  let shapes = 0

  const step = (shape: Shape, key: unknown): Shape => {
    let next = shape.next.get(key)
    if (next === undefined) {
      next = new Shape()
      shape.next.set(key, next)
    }
    return next
  }

  return (statement: Statement.Statement<unknown>): Compiled => {
    const segments = segmentsOf(statement)
    const params: Array<unknown> = []
    let shape = root
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!
      switch (segment._tag) {
        case "Literal":
          if (segment.params !== undefined) params.push(...segment.params)
          shape = step(shape, segment.value)
          break
        case "Parameter":
          params.push(segment.value)
          shape = step(shape, PARAMETER)
          break
        case "ArrayHelper":
          params.push(...segment.value)
          shape = step(step(shape, ARRAY), segment.value.length)
          break
        case "Identifier":
          shape = step(step(shape, IDENTIFIER), segment.value)
          break
        default:
          return statement.compile()
      }
    }
    if (shape.sql === undefined) {
      if (++shapes > maxShapes) {
        root = new Shape()
        shapes = 0
      }
      const compiled = statement.compile()
      shape.sql = compiled[0]
      return compiled
    }
    return [shape.sql, params]
  }
}
