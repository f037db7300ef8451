/**
 * A small Okapi BM25 index: scores short texts against a free-text query.
 * Pure, dependency-free, deterministic (used by the decision-suggestion engine).
 */

/** Term-frequency saturation. */
export const K1 = 1.2
/** Document-length normalisation. */
export const B = 0.75

// Short English list: words that carry no topic and would otherwise make everything match.
// Negations ("not", "no") are kept on purpose: they matter in review reasoning.
const STOPWORDS: ReadonlySet<string> = new Set([
  "a", "about", "above", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at",
  "be", "been", "being", "but", "by", "can", "could", "did", "do", "does", "for", "from",
  "had", "has", "have", "he", "her", "his", "how", "i", "if", "in", "into", "is", "it", "its",
  "me", "my", "of", "on", "or", "our", "she", "should", "so", "than", "that", "the", "their",
  "them", "then", "there", "these", "they", "this", "those", "to", "was", "we", "were", "what",
  "when", "where", "which", "who", "why", "will", "with", "would", "you", "your"
])

const WORD = /[\p{L}\p{N}]+/gu
const ASCII_WORD = /^[a-z]+$/

/**
 * Light plural stemming for plain ASCII words only ("claims" → "claim", "policies" → "policy"),
 * so singular and plural match; other scripts are left untouched rather than mangled.
 */
export const stem = (token: string): string => {
  if (!ASCII_WORD.test(token) || token.length <= 3) return token
  if (token.endsWith("ies") && token.length > 4) return token.slice(0, -3) + "y"
  if (token.endsWith("sses")) return token.slice(0, -2)
  if (token.endsWith("s") && !/(ss|us|is)$/.test(token)) return token.slice(0, -1)
  return token
}

/** Lowercased Unicode letter/digit runs, stopwords dropped, lightly stemmed. */
export const tokenize = (text: string): string[] =>
  (text.toLowerCase().match(WORD) ?? []).filter((t) => !STOPWORDS.has(t)).map(stem)

/** A prepared corpus: term statistics computed once, queried many times. */
export interface Bm25Index {
  /** Number of documents in the index. */
  readonly size: number
  /** One BM25 score per document, in document order (0 when no query term occurs). */
  readonly score: (query: string) => number[]
}

const termCounts = (tokens: ReadonlyArray<string>): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1)
  return counts
}

const documentFrequencies = (docs: ReadonlyArray<Map<string, number>>): Map<string, number> => {
  const df = new Map<string, number>()
  for (const doc of docs) for (const term of doc.keys()) df.set(term, (df.get(term) ?? 0) + 1)
  return df
}

// The "+1" (Lucene) variant keeps idf positive, so a term present in most documents
// still counts a little instead of subtracting from the score.
const idf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5))

/** Builds an index over `docs`. */
export const createIndex = (docs: ReadonlyArray<string>): Bm25Index => {
  const tokenized = docs.map(tokenize)
  const counts = tokenized.map(termCounts)
  const lengths = tokenized.map((t) => t.length)
  const avgLength = lengths.reduce((s, l) => s + l, 0) / Math.max(1, docs.length)
  const df = documentFrequencies(counts)

  const scoreDoc = (doc: number, terms: ReadonlyArray<string>): number => {
    const norm = K1 * (1 - B + (B * lengths[doc]!) / avgLength)
    let score = 0
    for (const term of terms) {
      const tf = counts[doc]!.get(term) ?? 0
      if (tf > 0) score += idf(docs.length, df.get(term)!) * ((tf * (K1 + 1)) / (tf + norm))
    }
    return score
  }

  return {
    size: docs.length,
    score: (query) => {
      // A repeated query word should not count twice.
      const terms = [...new Set(tokenize(query))]
      if (avgLength === 0 || terms.length === 0) return docs.map(() => 0)
      return docs.map((_, i) => scoreDoc(i, terms))
    }
  }
}

/** One BM25 score per document for `query` (a one-shot `createIndex(docs).score(query)`). */
export const scoreAll = (query: string, docs: ReadonlyArray<string>): number[] =>
  createIndex(docs).score(query)
