/**
 * The console's view of the two published contracts: the bodies it sends and reads, picked out of the types
 * `npm run generate:client` writes beside this file from the OpenAPI documents (math.d.ts, genomics.d.ts).
 * A field the console reads and a contract drops fails the console's type check.
 */
import type { paths as GenomicsPaths } from './genomics';
import type { components as MathComponents, paths as MathPaths } from './math';

type Method = 'get' | 'post' | 'put' | 'delete';

/** The JSON an operation answers with when it succeeds. */
type SuccessBody<Operation> = Operation extends { responses: infer Responses }
  ? Responses[Extract<keyof Responses, 200 | 201>] extends { content: { 'application/json': infer Body } }
    ? Body
    : never
  : never;

/** The JSON an operation takes. */
type RequestBody<Operation> = Operation extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** What the math API answers to `method path` (the path as the contract writes it, `{task_id}` and all). */
export type MathResponse<Path extends keyof MathPaths, M extends Method = 'get'> = SuccessBody<
  MathPaths[Path][M]
>;

/** What the math API takes as the body of `method path`. */
export type MathRequest<Path extends keyof MathPaths, M extends Method> = RequestBody<MathPaths[Path][M]>;

/** What the genomics API answers to `method path`. */
export type GenomicsResponse<Path extends keyof GenomicsPaths, M extends Method = 'get'> = SuccessBody<
  GenomicsPaths[Path][M]
>;

/** What the genomics API takes as the body of `method path`. */
export type GenomicsRequest<Path extends keyof GenomicsPaths, M extends Method> = RequestBody<
  GenomicsPaths[Path][M]
>;

/** An RFC 9457 problem as both services document it (one schema, the same in both contracts). */
export type ContractProblem = MathComponents['schemas']['Problem'];

/**
 * Every value of a contract's enum, in the order written: the type check fails when one is missing or unknown
 * (a list typed `Value[]` alone would miss a value the contract adds).
 */
export const valuesOf = <Value extends string>(values: Record<Value, true>): Value[] =>
  Object.keys(values) as Value[];
