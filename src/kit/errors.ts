/**
 * Errors an operation's handler may throw. They are data, not transport: each gateway
 * turns them into its own shape (REST status + body, GraphQL `errors[]` entry).
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

/**
 * The input is well-formed but the calculation cannot be done (an even root of a
 * negative number, a result too large to write down). Answered as 422 `value_error`.
 *
 * @example
 * throw new CalculationError("an even root of a negative number is not real", ["number"]);
 */
export class CalculationError extends Error {
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
  constructor(message: string) {
    super(message);
    this.name = "NotFoundError";
  }
}
