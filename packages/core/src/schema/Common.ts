import * as Arbitrary from "effect/Arbitrary"
import * as Schema from "effect/Schema"

/**
 * An id supplied by a caller: 1 to 256 characters, no control characters
 * (docs/decisions.md, "Product rulings"). Every caller-supplied id in every operation uses it.
 */
export const Id = Schema.String.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.maxLength(256, { message: () => "must be at most 256 characters" }),
  Schema.pattern(/^[^\u0000-\u001f\u007f]*$/, { message: () => "must not contain control characters" })
).annotations({ identifier: "Id", description: "1 to 256 characters, no control characters." })

/**
 * A list of `item`s, at most `max` entries. Every list an operation takes has a cap, sized so one
 * call's work stays short on SQLite, where it holds the server's one thread (docs/protocol.md,
 * "Limits"; `test/protocol/list-caps.test.ts` finds any list without one).
 */
export const List = <S extends Schema.Schema.Any>(item: S, max: number): Schema.filter<Schema.Array$<S>> =>
  Schema.Array(item).pipe(Schema.maxItems<Schema.Array$<S>>(max, { message: () => `must have at most ${max} entries` }))

/** A non-empty list of `item`s, at most `max` entries. */
export const NonEmptyList = <S extends Schema.Schema.Any>(item: S, max: number): Schema.filter<Schema.filter<Schema.Array$<S>>> =>
  List(item, max).pipe(Schema.minItems<Schema.filter<Schema.Array$<S>>>(1, { message: () => "must have at least 1 entry" }))

/** A list of ids, at most `max` entries. */
export const Ids = (max: number) => List(Id, max)

/** A non-empty list of ids, at most `max` entries. */
export const NonEmptyIds = (max: number) => NonEmptyList(Id, max)

/** The annotation of a cap on several lists together (`capTogether`); ListCaps.ts reads it. */
export const CapTogetherId: unique symbol = Symbol.for("@atrium/core/CapTogether")

export interface CapTogether {
  /** What is counted, in the request's own field names, e.g. `userIds × documentIds`. */
  readonly counted: string
  readonly max: number
}

/**
 * A cap on the entries of several lists together, for work that grows with their product or
 * their sum, which each list's own cap leaves too large. `count` gives the product's factors
 * (`"product"`) or the total (`"sum"`); refused at `path` with the counts and the limit.
 */
export const capTogether = <S extends Schema.Schema.Any>(options: {
  readonly counted: string
  readonly max: number
  readonly path: ReadonlyArray<PropertyKey>
} & (
  | { readonly product: (value: Schema.Schema.Type<S>) => ReadonlyArray<number> }
  | { readonly sum: (value: Schema.Schema.Type<S>) => number }
)): (self: S) => Schema.filter<S> =>
  Schema.filter<S>((value) => {
    const factors = "product" in options ? options.product(value) : [options.sum(value)]
    const total = factors.reduce((product, factor) => product * factor, 1)
    return total <= options.max || {
      path: options.path,
      message: `${options.counted} must have at most ${options.max} entries: ${
        factors.length > 1 ? `${factors.join(" × ")} = ${total}` : `${total} given`
      }`
    }
  }, { [CapTogetherId]: { counted: options.counted, max: options.max } satisfies CapTogether })

/** The annotation of a cap on a value's size as JSON (`maxJsonBytes`); ListCaps.ts reads it. */
export const JsonBytesCapId: unique symbol = Symbol.for("@atrium/core/JsonBytesCap")

const utf8 = new TextEncoder()

/** A value's size as JSON text in UTF-8, the unit of every `maxJsonBytes` cap. */
export const jsonBytes = (value: unknown): number => utf8.encode(JSON.stringify(value)).length

/**
 * A cap on a value's size as JSON text in UTF-8, for a value an operation stores or sends whole
 * (a webhook message's payload, a live state): declared like a list's cap, so docs/protocol.md's
 * "Limits" table lists it (`test/protocol/limits-table.test.ts`).
 */
export const maxJsonBytes = (max: number) => <S extends Schema.Schema.Any>(self: S): Schema.filter<S> =>
  self.pipe(Schema.filter((value) => jsonBytes(value) <= max, {
    message: () => `must be at most ${max} bytes of JSON`,
    [JsonBytesCapId]: max
  }))

/** An integer in `[min, max]`. */
export const IntRange = (min: number, max: number) =>
  Schema.Number.pipe(
    Schema.int({ message: () => "must be an integer" }),
    Schema.between(min, max, { message: () => `must be between ${min} and ${max}` })
  )

/** A page size: 1 to `max` (1000 where the spec names no maximum). */
export const PageSize = (max = 1000) => IntRange(1, max)

/** Plain text of bounded length. */
export const Text = (max: number) =>
  Schema.String.pipe(Schema.maxLength(max, { message: () => `must be at most ${max} characters` }))

export const NonEmptyText = (max: number) =>
  Text(max).pipe(Schema.minLength(1, { message: () => "must not be empty" }))

/** An email address (a pragmatic check: one `@`, a dot in the domain, no spaces). */
export const Email = Schema.String.pipe(
  Schema.maxLength(320, { message: () => "must be at most 320 characters" }),
  Schema.pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: () => "must be a valid email address" })
).annotations({ identifier: "Email" })

/** A JSON object with arbitrary values. */
export const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** Optional key: absent is allowed, `undefined` is not produced on decode. */
export const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

/**
 * The last millisecond of the year 9999: no time a caller gives may be later. Beyond it a time
 * has no ISO 8601 form of four-digit years, and from +275760 none at all (`toISOString` throws).
 */
export const MAX_EPOCH_MILLIS = 253_402_300_799_999

/** A point in time in epoch milliseconds (spec convention 6). */
export const EpochMillis = Schema.Number.pipe(
  Schema.int({ message: () => "must be an integer (milliseconds since the epoch)" }),
  Schema.nonNegative({ message: () => "must not be negative" }),
  Schema.lessThanOrEqualTo(MAX_EPOCH_MILLIS, { message: () => "must be before the year 10000" })
)

/**
 * A key an input refuses, with a message that says why: declared, so the OpenAPI document shows it
 * (`not: {}`) and generated clients type it `never`, rather than left an unknown parameter.
 */
export const Refused = (message: string, description: string) =>
  Schema.Never.annotations({
    description,
    message: () => message,
    // Effect's Arbitrary builds every part, even under the struct's own annotation (`refusing`).
    arbitrary: () => (fc) => fc.constant(undefined as never)
  })

/** Why a client API call refuses a field that names the acting user (spec client-api.md, "Conventions" 4). */
export const ACTOR_REFUSED = "names the acting user, who is the token's user: leave it out"

/**
 * A struct of `fields` that refuses the keys of `refused`, each with its message. Its valid
 * samples (tests) are those of `fields` alone: Effect's Arbitrary would give a refused key a value.
 */
export const refusing = <F extends Schema.Struct.Fields, const K extends string>(fields: F, refused: { readonly [key in K]: string }) => {
  const keys: Record<string, Schema.optionalWith<typeof Schema.Never, { exact: true }>> = {}
  for (const [key, message] of Object.entries<string>(refused)) keys[key] = optional(Refused(message, `Not accepted: it ${message}.`))
  const accepted = Schema.Struct(fields)
  return Schema.Struct({ ...fields, ...(keys as { readonly [key in K]: Schema.optionalWith<typeof Schema.Never, { exact: true }> }) })
    .annotations({ arbitrary: () => () => Arbitrary.make(accepted) })
}

/**
 * The `data` of an operation that takes no parameters: `{}`, every key refused as unknown
 * (docs/protocol.md), and typed so in the OpenAPI document (an object with no properties).
 */
export const NoParameters = Schema.Record({
  key: Schema.String,
  // Effect's Arbitrary builds every part before the record's own one answers `{}`.
  value: Schema.Never.annotations({ message: () => "is not a known parameter", arbitrary: () => (fc) => fc.constant(undefined as never) })
}).annotations({ arbitrary: () => (fc) => fc.constant({}) })

/**
 * An absolute http(s) URL as a person writes one: the scheme with its `//`, a host, and no
 * whitespace around or inside it (which `new URL` would quietly drop or encode). The one rule
 * for every URL Atrium calls out to: webhook endpoints and the permission provider.
 */
export const isHttpUrl = (value: string): boolean => {
  if (!/^https?:\/\//i.test(value) || /\s/.test(value) || !URL.canParse(value)) return false
  return new URL(value).hostname !== ""
}

/** isHttpUrl's first check as a JSON Schema pattern, so the published contract says it too (the rest is the server's). */
export const HTTP_URL_PATTERN = "^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$"
