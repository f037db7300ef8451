/**
 * A newcomer follows the README and docs/ by their links: every relative link in them must lead to
 * a file or folder of the repository, and every `#anchor` into a Markdown file to one of its headings.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const root = resolve(__dirname, "..", "..", "..")

/** The Markdown a reader starts from: the README, docs/ (and its folders), each package's and example's README. */
const markdownFiles = (): ReadonlyArray<string> => {
  const files = [join(root, "README.md")]
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith(".md")) files.push(path)
    }
  }
  walk(join(root, "docs"))
  for (const folder of ["packages", "examples"]) {
    for (const name of readdirSync(join(root, folder))) {
      const readme = join(root, folder, name, "README.md")
      if (existsSync(readme)) files.push(readme)
    }
  }
  return files
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading.trim().toLowerCase().replace(/[`*_]/g, "").replace(/[^\p{L}\p{N}\s-]/gu, "").replace(/\s/g, "-")

const anchorsOf = (file: string): ReadonlySet<string> =>
  new Set(readFileSync(file, "utf8").split("\n").filter((line) => /^#{1,6} /.test(line)).map((line) => anchorOf(line.replace(/^#+ /, ""))))

/** `[text](target)` outside code blocks, with the line it is on. */
const linksOf = (text: string): ReadonlyArray<{ readonly target: string; readonly line: number }> => {
  const links: Array<{ target: string; line: number }> = []
  let fenced = false
  text.split("\n").forEach((line, i) => {
    if (line.trimStart().startsWith("```")) fenced = !fenced
    if (fenced) return
    for (const match of line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) links.push({ target: match[1]!, line: i + 1 })
  })
  return links
}

describe("links in the README and docs/", () => {
  for (const file of markdownFiles()) {
    it(relative(root, file), () => {
      const broken: Array<string> = []
      for (const { line, target } of linksOf(readFileSync(file, "utf8"))) {
        if (/^[a-z]+:/i.test(target)) continue // http(s), mailto: not this repository's
        const [path, anchor] = target.split("#") as [string, string | undefined]
        const destination = path === "" ? file : resolve(dirname(file), path)
        if (!existsSync(destination)) {
          broken.push(`line ${line}: ${target} (no such file)`)
        } else if (anchor !== undefined && destination.endsWith(".md") && !anchorsOf(destination).has(anchor)) {
          broken.push(`line ${line}: ${target} (no such heading)`)
        }
      }
      expect(broken).toEqual([])
    })
  }
})
