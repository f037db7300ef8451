/**
 * Issue 22, item 4: `any` and `as unknown as` in the packages' sources (generated files aside)
 * stay at most half of what they were (45 and 8), so their count cannot creep back.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"

const MAX_ANY = 22
const MAX_AS_UNKNOWN_AS = 4

const packages = join(import.meta.dirname, "../..")

/** Comments say "any" in English; only code counts. */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1")

/** `any` as a type: after `:`, `<`, `,`, `(`, `|`, `&` or `as`, or before `[]` or `>`. */
const ANY = /(?<=(?::|<|,|\(|\||&|\bas)\s*)any\b|\bany(?=\s*(?:\[\]|>))/g
const AS_UNKNOWN_AS = /\bas\s+unknown\s+as\b/g

interface Found {
  readonly file: string
  readonly line: number
  readonly text: string
}

const find = (pattern: RegExp): Array<Found> => {
  const found: Array<Found> = []
  for (const name of readdirSync(packages)) {
    const src = join(packages, name, "src")
    if (!existsSync(src)) continue
    for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
      if (!/\.tsx?$/.test(file) || file.includes(".generated.")) continue
      withoutComments(readFileSync(join(src, file), "utf8")).split("\n").forEach((text, i) => {
        for (const _ of text.matchAll(pattern)) found.push({ file: `${name}/src/${file}`, line: i + 1, text: text.trim() })
      })
    }
  }
  return found
}

const listed = (found: ReadonlyArray<Found>) => found.map((f) => `${f.file}:${f.line}  ${f.text}`).join("\n")

it("counts type-level `any`, not the word", () => {
  const sample = withoutComments([
    "const a: any = 1, b = f<any>(x as any), c: Array<any> = [], d: any[] = []",
    "type T = Map<string, any> | any",
    "// any page token, any time",
    "const message = `any`; const many = 1; const anyway = company"
  ].join("\n"))
  expect(sample.match(ANY)).toHaveLength(7)
  expect("x as unknown as T; y as  unknown  as U".match(AS_UNKNOWN_AS)).toHaveLength(2)
})

it(`packages/*/src hold at most ${MAX_ANY} \`any\` and ${MAX_AS_UNKNOWN_AS} \`as unknown as\``, () => {
  const anys = find(ANY)
  const casts = find(AS_UNKNOWN_AS)
  expect(anys.length, `type-level any (at most ${MAX_ANY}):\n${listed(anys)}`).toBeLessThanOrEqual(MAX_ANY)
  expect(casts.length, `as unknown as (at most ${MAX_AS_UNKNOWN_AS}):\n${listed(casts)}`).toBeLessThanOrEqual(MAX_AS_UNKNOWN_AS)
})
