import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import { type CapTogether, CapTogetherId, JsonBytesCapId } from "../schema/Common.js"

/**
 * A cap an operation's input declares: on one list (`maxItems`; undefined when it has none), on
 * several lists together (`counted`), or on a value's size as JSON (`bytes`). `path` is where it
 * applies, in the request's field names: `users`, `commentAnnotations[].commentData`; "" is `data` itself.
 */
export type ListCap =
  | { readonly path: string; readonly maxItems: number | undefined; readonly item: AST.AST }
  | { readonly path: string; readonly counted: string; readonly max: number }
  | { readonly path: string; readonly bytes: number }

const joined = (path: string, key: string) => path === "" ? key : `${path}.${key}`

const maxItemsOf = (ast: AST.Refinement): number | undefined =>
  Option.getOrUndefined(AST.getSchemaIdAnnotation(ast)) === Schema.MaxItemsSchemaId
    ? (Option.getOrUndefined(AST.getJSONSchemaAnnotation(ast)) as { maxItems?: number } | undefined)?.maxItems
    : undefined

/**
 * Every list an input schema takes, nested ones included, with its cap, every cap on lists
 * together, and every cap on a value's size as JSON: what docs/protocol.md's "Limits" table lists, what the tests check every list has,
 * and what bench/batches.mjs sends the largest of.
 */
export const listCaps = (schema: Schema.Schema.Any): ReadonlyArray<ListCap> => {
  const caps: Array<ListCap> = []
  const seen = new Set<AST.AST>()
  const walk = (ast: AST.AST, path: string, maxItems: number | undefined): void => {
    switch (ast._tag) {
      case "Refinement": {
        const together = ast.annotations[CapTogetherId] as CapTogether | undefined
        if (together !== undefined) caps.push({ path, counted: together.counted, max: together.max })
        const bytes = ast.annotations[JsonBytesCapId] as number | undefined
        if (bytes !== undefined) caps.push({ path, bytes })
        return walk(ast.from, path, maxItems ?? maxItemsOf(ast))
      }
      case "TupleType": {
        ast.elements.forEach((element, index) => walk(element.type, joined(path, String(index)), undefined))
        if (ast.rest.length > 0) {
          caps.push({ path, maxItems, item: ast.rest[0]!.type })
          for (const rest of ast.rest) walk(rest.type, `${path}[]`, undefined)
        }
        return
      }
      case "TypeLiteral": {
        for (const property of ast.propertySignatures) walk(property.type, joined(path, String(property.name)), undefined)
        for (const index of ast.indexSignatures) walk(index.type, joined(path, "*"), undefined)
        return
      }
      case "Union":
        for (const member of ast.types) walk(member, path, maxItems)
        return
      case "Suspend": {
        const target = ast.f()
        if (seen.has(target)) return
        seen.add(target)
        return walk(target, path, maxItems)
      }
      case "Transformation":
        walk(ast.from, path, maxItems)
        return walk(ast.to, path, maxItems)
      default:
        return
    }
  }
  walk(schema.ast, "", undefined)
  // A list reached twice (a union's members, a transformation's sides) is listed once, with its smallest cap.
  const unique = new Map<string, ListCap>()
  for (const cap of caps) {
    const key = "counted" in cap ? `${cap.path} ${cap.counted}` : "bytes" in cap ? `${cap.path} bytes` : cap.path
    const before = unique.get(key)
    if (before === undefined || ("maxItems" in before && "maxItems" in cap && (before.maxItems ?? Infinity) > (cap.maxItems ?? Infinity))) {
      unique.set(key, cap)
    }
  }
  return [...unique.values()]
}
