/**
 * Errors an operation's handler may throw. They are data, not transport: each gateway
 * turns them into its own shape (REST status + body, GraphQL `errors[]` entry).
 *
 * They are recognised by a brand (a `Symbol.for` key, shared by every copy of this file in
 * the process), not by `instanceof`: a module outside the repo that brings its own copy of
 * the kit still gets its 422 or 404.
 */

/** One problem of a request, in the FastAPI/Pydantic v2 shape, without the source prefix. */
export interface Problem {
  /** Parameter path: `["numbers", "2"]`. The gateway prefixes `"query"` or `"args"`. */
  loc: string[];
  msg: string;
  /** A Pydantic v2 error type: `missing`, `float_parsing`, `value_error`, … */
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** Brand of {@link CalculationError}s, from whichever copy of the kit made them. */
export const CALCULATION_ERROR: unique symbol = Symbol.for(
  "utility-calculation-service.calculation-error",
);
/** Brand of {@link NotFoundError}s, from whichever copy of the kit made them. */
export const NOT_FOUND_ERROR: unique symbol = Symbol.for("utility-calculation-service.not-found");

/**
 * The input is well-formed but the calculation cannot be done (an even root of a
 * negative number, a result too large to write down). Answered as 422 `value_error`.
 *
 * @example
 * throw new CalculationError("an even root of a negative number is not real", ["number"]);
 */
export class CalculationError extends Error {
  readonly [CALCULATION_ERROR] = true;
  readonly loc: string[];
  constructor(message: string, loc: string[] = []) {
    super(message);
    this.name = "CalculationError";
    this.loc = loc;
  }

  toProblem(): Problem {
    return { loc: this.loc, msg: `Value error, ${this.message}`, type: "value_error" };
  }
}

/**
 * The input names something that does not exist (a question id). Answered as 404.
 *
 * @example
 * throw new NotFoundError("no question has the id 'wyr-9999'");
 */
export class NotFoundError extends Error {
  readonly [NOT_FOUND_ERROR] = true;
  constructor(message: string) {
    super(message);
    this.name = "NotFoundError";
  }
}

/** What the service reads of a branded error: never more than these plain fields. */
interface Branded {
  message: unknown;
  loc?: unknown;
}

function branded(value: unknown, brand: symbol): value is Branded {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}

/**
 * True for a {@link CalculationError} made by any copy of the kit.
 *
 * @example
 * isCalculationError(new CalculationError("no")); // true
 */
export function isCalculationError(value: unknown): value is Branded {
  return branded(value, CALCULATION_ERROR);
}

/**
 * True for a {@link NotFoundError} made by any copy of the kit.
 *
 * @example
 * isNotFoundError(new NotFoundError("no such id")); // true
 */
export function isNotFoundError(value: unknown): value is Branded {
  return branded(value, NOT_FOUND_ERROR);
}

/**
 * The 422 problem of a branded calculation error, read defensively: another copy of the
 * kit (or another version) may differ in everything but the brand.
 */
export function calculationProblem(error: Branded): Problem {
  const loc = Array.isArray(error.loc) ? error.loc.map(String) : [];
  return { loc, msg: `Value error, ${String(error.message)}`, type: "value_error" };
}
