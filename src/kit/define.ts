/**
 * `defineOperation`: the identity helper that declares one operation as plain data.
 * A module under `operations/<area>/<name>.ts` default-exports its result; the loader
 * finds it, and REST, GraphQL, OpenAPI and the docs are generated from it.
 */
import type { z } from "zod";
import type { Cost } from "./cost.js";

/** The input schema: an object of named parameters (see `params.ts`). */
export type InputSchema = z.ZodObject;

/** A worked example: documented in OpenAPI and run through both gateways by the tests. */
export interface OperationExample<I extends InputSchema, O extends z.ZodType> {
  /** One line saying what the example shows. */
  title: string;
  /** Parameter values as a client sends them (decimals as strings). */
  input: z.input<I>;
  /** The complete response body the example must produce. */
  output: z.input<O>;
}

export interface OperationSpec<I extends InputSchema, O extends z.ZodType> {
  /** First path segment, `[a-z][a-z0-9-]*`: `math`. */
  area: string;
  /** The rest of the path, segments joined by `/`: `sum`, `checksum/md5`. */
  name: string;
  /** One line, shown in lists. */
  summary: string;
  /** A paragraph or more (CommonMark): semantics, limits, edge cases. */
  description: string;
  input: I;
  output: O;
  examples: OperationExample<I, O>[];
  /**
   * When the handler may throw `NotFoundError`: what a 404 means for this operation.
   * Documents the 404 response in OpenAPI.
   */
  notFound?: string;
  /**
   * Set when the same input may answer differently from one call to the next: says when,
   * in a sentence. Surfaces that advertise idempotence (MCP's `idempotentHint`) read it.
   */
  nondeterministic?: string;
  /**
   * The calculation: pure and synchronous. Throw `CalculationError` for input that is
   * well-formed but cannot be computed, `NotFoundError` for a reference to nothing.
   */
  handler: (input: z.output<I>) => z.input<O>;
  /**
   * Upper bounds of what the handler will produce and spend on this (validated) input,
   * computed without running it. The runner refuses an input over the request budget
   * with a 422, and GraphQL adds the costs of all fields of a document before any runs
   * (see `REQUEST_BUDGET`). Declare it when the answer or the work grows with the input.
   */
  cost?: (input: z.output<I>) => Cost;
}

/** Marks objects made by {@link defineOperation}, so the loader can tell them apart. */
export const OPERATION_BRAND: unique symbol = Symbol.for("utility-calculation-service.operation");

export type Operation<
  I extends InputSchema = InputSchema,
  O extends z.ZodType = z.ZodType,
> = Readonly<OperationSpec<I, O>> & { readonly [OPERATION_BRAND]: true };

/** Any operation, whatever its schemas: what the registry and gateways hold. */
export type AnyOperation = Readonly<
  Omit<OperationSpec<InputSchema, z.ZodType>, "handler" | "examples" | "cost"> & {
    // biome-ignore lint/suspicious/noExplicitAny: each operation narrows its own input type
    handler: (input: any) => unknown;
    // biome-ignore lint/suspicious/noExplicitAny: as for handler
    cost?: (input: any) => Cost;
    examples: { title: string; input: Record<string, unknown>; output: unknown }[];
  }
> & { readonly [OPERATION_BRAND]: true };

/**
 * Declares an operation. Returns the spec frozen and branded; nothing else happens here.
 *
 * @example
 * export default defineOperation({
 *   area: "math", name: "subtract", summary: "a − b, exactly",
 *   description: "…",
 *   input: z.object({ a: decimal(), b: decimal() }),
 *   output: z.object({ result: z.number().nullable(), decimal: z.string() }),
 *   examples: [{ title: "0.3 − 0.1", input: { a: "0.3", b: "0.1" }, output: { result: 0.2, decimal: "0.2" } }],
 *   handler: ({ a, b }) => arithmeticResult(a.minus(b)),
 * });
 */
export function defineOperation<I extends InputSchema, O extends z.ZodType>(
  spec: OperationSpec<I, O>,
): Operation<I, O> {
  return Object.freeze({ ...spec, [OPERATION_BRAND]: true as const });
}

/** True for a value made by {@link defineOperation}. */
export function isOperation(value: unknown): value is AnyOperation {
  return typeof value === "object" && value !== null && OPERATION_BRAND in value;
}
