/**
 * The one runner every gateway calls: validate the input, run the handler, validate the
 * output. Whatever goes wrong comes out as one of three errors the gateways know.
 */
import type { AnyOperation } from "../kit/define.js";
import { CalculationError, NotFoundError, type Problem } from "../kit/errors.js";
import { budgetProblem } from "./budget.js";
import { toProblems } from "./problems.js";

/** The input was invalid: every problem found, in Pydantic shape (loc without source). */
export class InvalidInputError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super(`invalid input: ${problems.map((p) => `${p.loc.join(".")}: ${p.msg}`).join("; ")}`);
    this.name = "InvalidInputError";
    this.problems = problems;
  }
}

/** The handler answered something its own output schema rejects: a bug, never the client's. */
export class OutputContractError extends Error {
  constructor(operation: AnyOperation, detail: string) {
    super(`${operation.area}/${operation.name} answered outside its output schema: ${detail}`);
    this.name = "OutputContractError";
  }
}

export { NotFoundError };

/**
 * Runs `operation` on a raw input object (typed values, decimals as strings).
 * `gatewayProblems` are problems the gateway already found (unknown or repeated
 * parameters); they are reported together with the schema's own, so a client sees every
 * problem at once.
 *
 * @throws {InvalidInputError} for bad input, or a `CalculationError` from the handler
 * @throws {NotFoundError} when the input refers to something that does not exist
 * @throws {OutputContractError} when the handler breaks its own output schema
 *
 * @example
 * execute(sum, { numbers: ["0.1", "0.2"] }); // { result: 0.3, decimal: "0.3", count: 2 }
 */
export function execute(
  operation: AnyOperation,
  input: Record<string, unknown>,
  gatewayProblems: Problem[] = [],
): unknown {
  const parsed = operation.input.safeParse(input);
  if (!parsed.success || gatewayProblems.length > 0) {
    const schemaProblems = parsed.success
      ? []
      : toProblems(parsed.error.issues, operation.input, input);
    throw new InvalidInputError([...gatewayProblems, ...schemaProblems]);
  }
  const overBudget = operation.cost && budgetProblem(operation, parsed.data);
  if (overBudget) throw new InvalidInputError([overBudget]);
  let output: unknown;
  try {
    output = operation.handler(parsed.data);
  } catch (error) {
    if (error instanceof CalculationError) throw new InvalidInputError([error.toProblem()]);
    throw error;
  }
  const checked = operation.output.safeParse(output);
  if (!checked.success) throw new OutputContractError(operation, checked.error.message);
  return checked.data;
}

/** How a calculation ended, for metrics. */
export type CalculationOutcome = "ok" | "invalid" | "not_found" | "error";

/** Runs an operation as {@link execute} does. */
export type Runner = (
  operation: AnyOperation,
  input: Record<string, unknown>,
  gatewayProblems?: Problem[],
) => unknown;

/**
 * {@link execute}, reporting each calculation's outcome to `observe` (metrics). Each
 * gateway makes its own, so the gateway's name travels with the count.
 *
 * @example
 * const run = observedRunner((op, outcome) => counter.inc({ operation: `${op.area}/${op.name}`, outcome }));
 */
export function observedRunner(
  observe: (operation: AnyOperation, outcome: CalculationOutcome) => void,
): Runner {
  return (operation, input, gatewayProblems) => {
    try {
      const output = execute(operation, input, gatewayProblems);
      observe(operation, "ok");
      return output;
    } catch (error) {
      observe(
        operation,
        error instanceof InvalidInputError
          ? "invalid"
          : error instanceof NotFoundError
            ? "not_found"
            : "error",
      );
      throw error;
    }
  };
}
