import * as Option from "effect/Option"
import type * as AST from "effect/SchemaAST"

/** A compiled decoder's answer for a value it does not vouch for: Effect's decoder decides it. */
export const UNDECIDED: unique symbol = Symbol("UNDECIDED")

/** Returns the decoded value (what Effect's decoder would give), or UNDECIDED. */
export type CompiledDecoder = (value: unknown) => unknown

/** The options operation inputs are decoded with (Decode.ts); a refinement's filter receives them. */
const parseOptions: AST.ParseOptions = { errors: "all", onExcessProperty: "error" }

/**
 * A decoder compiled once from a schema's AST, for the shapes operation inputs are made of:
 * structs and records of primitives, literals, unions and arrays, and their refinements. It answers a
 * valid value in a fraction of Effect's general decoder's time (docs/benchmarks.md); anything
 * it is unsure of (an invalid value, an unusual key) is UNDECIDED, and Effect's decoder then
 * gives the value or the precise error. Undefined when the schema has a part it does not know
 * (a transformation, a class, a recursive schema): that operation always uses Effect's decoder.
 *
 * The rule it keeps: whenever it returns a value, Effect's decoder (with `parseOptions`) would
 * succeed with an equal value. `test/protocol/compiled-decoder.test.ts` checks it against
 * Effect's decoder for every operation's input.
 */
export const compileDecoder = (ast: AST.AST): CompiledDecoder | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => typeof u === "string" ? u : UNDECIDED
    case "NumberKeyword":
      return (u) => typeof u === "number" ? u : UNDECIDED
    case "BooleanKeyword":
      return (u) => typeof u === "boolean" ? u : UNDECIDED
    case "UnknownKeyword":
    case "AnyKeyword":
      return (u) => u
    case "NeverKeyword": // no value is valid: Effect's decoder says why
      return () => UNDECIDED
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal ? u : UNDECIDED
    }
    case "Enums": {
      const values = ast.enums.map(([, value]) => value)
      return (u) => values.includes(u as string | number) ? u : UNDECIDED
    }
    case "Refinement": {
      const from = compileDecoder(ast.from)
      if (from === undefined) return undefined
      return (u) => {
        const value = from(u)
        return value !== UNDECIDED && Option.isNone(ast.filter(value, parseOptions, ast)) ? value : UNDECIDED
      }
    }
    case "Union": {
      const members = ast.types.map(compileDecoder)
      if (!members.every((member) => member !== undefined)) return undefined
      return (u) => {
        for (const member of members) {
          const value = member(u)
          if (value !== UNDECIDED) return value
        }
        return UNDECIDED
      }
    }
    case "TupleType":
      return compileArray(ast)
    case "TypeLiteral":
      return compileStruct(ast)
    default:
      return undefined
  }
}

/** `Schema.Array(item)`: no fixed elements, one rest element. */
const compileArray = (ast: AST.TupleType): CompiledDecoder | undefined => {
  if (ast.elements.length > 0 || ast.rest.length !== 1) return undefined
  const item = compileDecoder(ast.rest[0]!.type)
  if (item === undefined) return undefined
  return (u) => {
    if (!Array.isArray(u)) return UNDECIDED
    const out = new Array(u.length)
    for (let i = 0; i < u.length; i++) {
      const value = item(u[i])
      if (value === UNDECIDED) return UNDECIDED
      out[i] = value
    }
    return out
  }
}

const isPlainRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** Own keys, when every one is an ordinary string key; undefined otherwise (symbols, `__proto__`). */
const stringKeys = (u: object): Array<string> | undefined => {
  const keys = Reflect.ownKeys(u)
  for (const key of keys) if (typeof key !== "string" || key === "__proto__") return undefined
  return keys as Array<string>
}

/**
 * A struct: its properties, in the schema's order, then (with an index signature over plain
 * string keys, as `Schema.Struct(fields, Schema.Record(...))` makes) every other key, each of
 * which must match it; properties must match it too, as Effect checks. Without one, an excess
 * key is UNDECIDED (Effect refuses it). A struct with no fields accepts any value but null and
 * undefined, as `Schema.Struct({})` does.
 */
const compileStruct = (ast: AST.TypeLiteral): CompiledDecoder | undefined => {
  if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
    return (u) => u === null || u === undefined ? UNDECIDED : u
  }
  if (ast.indexSignatures.length > 1) return undefined
  const index = ast.indexSignatures[0]
  if (index !== undefined && index.parameter._tag !== "StringKeyword") return undefined
  const rest = index === undefined ? undefined : compileDecoder(index.type)
  if (index !== undefined && rest === undefined) return undefined
  const properties: Array<{ readonly name: string; readonly optional: boolean; readonly decode: CompiledDecoder }> = []
  for (const signature of ast.propertySignatures) {
    const decode = compileDecoder(signature.type)
    if (decode === undefined || typeof signature.name !== "string") return undefined
    properties.push({ name: signature.name, optional: signature.isOptional, decode })
  }
  const names = new Set(properties.map((property) => property.name))
  return (u) => {
    if (!isPlainRecord(u)) return UNDECIDED
    const keys = stringKeys(u)
    if (keys === undefined) return UNDECIDED
    const out: Record<string, unknown> = {}
    let present = 0
    for (const { decode, name, optional } of properties) {
      if (!Object.prototype.hasOwnProperty.call(u, name)) {
        if (optional) continue
        return UNDECIDED
      }
      const value = decode(u[name])
      if (value === UNDECIDED) return UNDECIDED
      out[name] = value
      present++
    }
    if (rest === undefined) return present === keys.length ? out : UNDECIDED
    for (const key of keys) {
      const value = rest(u[key])
      if (value === UNDECIDED) return UNDECIDED
      if (!names.has(key)) out[key] = value
    }
    return out
  }
}
