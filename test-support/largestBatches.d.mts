export type Post = (path: string, data: unknown) => Promise<unknown>

export interface LargestBatch {
  readonly name: string
  readonly path: string
  /** What the call acts on, made before the measure; `r` keeps each round's ids apart. */
  readonly setup?: (post: Post, r: string) => Promise<unknown>
  readonly data: (r: string) => unknown
}

export declare const prepareLargestBatches: (post: Post) => Promise<void>
export declare const largestBatches: (capOf: (path: string, list: string) => number | undefined) => ReadonlyArray<LargestBatch>
export declare const capsOf: (
  operations: ReadonlyArray<{ readonly paths: ReadonlyArray<string>; readonly input: unknown }>,
  listCaps: (schema: never) => ReadonlyArray<
    | { readonly path: string; readonly counted: string; readonly max: number }
    | { readonly path: string; readonly maxItems: number | undefined }
    | { readonly path: string; readonly bytes: number }
  >
) => (path: string, list: string) => number | undefined
