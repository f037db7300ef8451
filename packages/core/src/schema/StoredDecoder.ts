import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"

/**
 * Decoding what storage hands back: a record Atrium wrote as JSON, parsed again. Reads decode
 * every row (a page of 50 threads is 300 records), so the usual case is a check compiled once
 * from the schema that allocates nothing and hands back the parsed value itself; copying it as a
 * decoder does cost as much as `JSON.parse` (docs/decisions.md, "Comments").
 */

/** Whether `value` (made by JSON.parse) is what Effect's decoder would give back unchanged. */
type Guard = (value: unknown) => boolean

const isPlainRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const parseOptions: AST.ParseOptions = { errors: "first", onExcessProperty: "ignore" }

/**
 * A guard compiled from a schema without transformations: structs (closed, or with one index
 * signature over string keys), arrays, unions, literals, primitives and refinements. True only
 * when Effect's decoder would succeed with an equal value; false leaves the value to Effect's
 * decoder. Undefined for a schema with a part it does not know.
 */
const compileGuard = (ast: AST.AST): Guard | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => typeof u === "string"
    case "NumberKeyword":
      return (u) => typeof u === "number"
    case "BooleanKeyword":
      return (u) => typeof u === "boolean"
    case "UnknownKeyword":
    case "AnyKeyword":
      return () => true
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal
    }
    case "Refinement": {
      const from = compileGuard(ast.from)
      return from && ((u) => from(u) && Option.isNone(ast.filter(u, parseOptions, ast)))
    }
    case "Union": {
      const members = ast.types.map(compileGuard)
      if (!members.every((member) => member !== undefined)) return undefined
      return (u) => members.some((member) => member(u))
    }
    case "TupleType": {
      const [items] = ast.rest
      if (ast.elements.length > 0 || ast.rest.length !== 1 || items === undefined) return undefined
      const item = compileGuard(items.type)
      return item && ((u) => Array.isArray(u) && u.every(item))
    }
    case "TypeLiteral":
      return compileStruct(ast)
    default:
      return undefined
  }
}

/** A struct: each property present matches, none required is missing, every other key matches the index signature (none without one). */
const compileStruct = (ast: AST.TypeLiteral): Guard | undefined => {
  if (ast.indexSignatures.length > 1) return undefined
  const index = ast.indexSignatures[0]
  if (index !== undefined && index.parameter._tag !== "StringKeyword") return undefined
  const rest = index === undefined ? undefined : compileGuard(index.type)
  if (index !== undefined && rest === undefined) return undefined
  // An index signature of unknown values (a JSON object's) takes every key as it is.
  const restChecks = index !== undefined && index.type._tag !== "UnknownKeyword" && index.type._tag !== "AnyKeyword"
  const properties = new Map<string, { readonly required: boolean; readonly guard: Guard }>()
  for (const signature of ast.propertySignatures) {
    const guard = compileGuard(signature.type)
    if (guard === undefined || typeof signature.name !== "string") return undefined
    properties.set(signature.name, { required: !signature.isOptional, guard })
  }
  const requiredCount = ast.propertySignatures.filter((signature) => !signature.isOptional).length
  return (u) => {
    if (!isPlainRecord(u)) return false
    let required = 0
    // JSON.parse makes own, enumerable string keys only: `for in` sees them all.
    for (const key in u) {
      if (key === "__proto__") return false
      const value = u[key]
      const property = properties.get(key)
      if (property !== undefined) {
        if (!property.guard(value)) return false
        if (property.required) required++
      } else if (rest === undefined) return false
      if (restChecks && rest !== undefined && !rest(value)) return false
    }
    return required === requiredCount
  }
}

/**
 * A decoder for records read back from storage: the value itself when the compiled guard
 * vouches for it, Effect's decoder otherwise (which drops keys the schema does not know). A value
 * that does not match throws: a defect, storage holding a record no version of Atrium wrote.
 */
export const makeStoredDecoder = <A, I>(schema: Schema.Schema<A, I, never>): (stored: unknown) => A => {
  const decode = Schema.decodeUnknownSync(schema)
  const guard = compileGuard(schema.ast)
  if (guard === undefined) return decode
  return (stored) => guard(stored) ? stored as A : decode(stored)
}
