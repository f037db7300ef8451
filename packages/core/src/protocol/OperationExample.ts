/** One recorded call of a path: the body sent and the answer received (Examples.generated.ts). */
export interface OperationExample {
  readonly request: { readonly data: unknown }
  readonly response: unknown
}
