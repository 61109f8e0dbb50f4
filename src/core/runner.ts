/**
 * The one runner every gateway calls: validate the input, run the handler, validate the
 * output. Whatever goes wrong comes out as one of three errors the gateways know.
 */
import { isDeepStrictEqual } from "node:util";
import type { AnyOperation } from "../kit/define.js";
import {
  calculationProblem,
  isCalculationError,
  isNotFoundError,
  NotFoundError,
  type Problem,
} from "../kit/errors.js";
import { budgetProblem } from "./budget.js";
import { inputCheckOf, UNSURE } from "./compile-input.js";
import { summarizeProblems, toProblems } from "./problems.js";

/**
 * Outputs are checked against their schemas outside production: the registry-driven
 * tests run every built-in example through this check, so production need not on every
 * request. An operator's module (OPERATIONS_DIRS) has no such tests: always checked.
 */
const CHECK_OUTPUT = process.env.NODE_ENV !== "production";
const testedOutputs = new WeakSet<AnyOperation>();

/** Marks a built-in operation, whose outputs this repository's tests check (the loader). */
export function trustOutputsOf(operation: AnyOperation): void {
  testedOutputs.add(operation);
}

/** The input was invalid: every problem found, in Pydantic shape (loc without source). */
export class InvalidInputError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super(`invalid input: ${summarizeProblems(problems)}`);
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

/**
 * The handler threw something that is not one of the kit's errors: a bug, answered as a
 * 500. Wrapped so that nothing a module throws (an object with a `statusCode`, a
 * `GraphQLError`) can choose its own answer; the original is the `cause`, for the log.
 */
export class HandlerFaultError extends Error {
  constructor(operation: AnyOperation, cause: unknown) {
    super(`${operation.area}/${operation.name} failed`, { cause });
    this.name = "HandlerFaultError";
  }
}

const ignore = () => {};

export { NotFoundError };

/**
 * Runs `operation` on a raw input object (typed values, decimals as strings). Outside
 * production, the output is checked against the operation's output schema.
 * `gatewayProblems` are problems the gateway already found (unknown or repeated
 * parameters); they are reported together with the schema's own, so a client sees every
 * problem at once.
 *
 * @throws {InvalidInputError} for bad input, or a `CalculationError` from the handler
 * @throws {NotFoundError} when the input refers to something that does not exist
 * @throws {OutputContractError} when the handler breaks its own output schema
 * @throws {HandlerFaultError} when the handler throws anything else
 *
 * @example
 * execute(sum, { numbers: ["0.1", "0.2"] }); // { result: 0.3, decimal: "0.3", count: 2 }
 */
export function execute(
  operation: AnyOperation,
  input: Record<string, unknown>,
  gatewayProblems?: Problem[],
): unknown {
  // No array made per call when the gateway found nothing (GraphQL never passes one).
  const found = gatewayProblems !== undefined && gatewayProblems.length > 0;
  // The compiled check answers for valid input; zod parses whatever it cannot vouch for.
  let data = found ? UNSURE : inputCheckOf(operation)(input);
  if (data === UNSURE) {
    const parsed = operation.input.safeParse(input);
    if (!parsed.success || found) {
      const schemaProblems = parsed.success
        ? []
        : toProblems(parsed.error.issues, operation.input, input);
      throw new InvalidInputError([...(gatewayProblems ?? []), ...schemaProblems]);
    }
    data = parsed.data;
  }
  const overBudget = operation.cost && budgetProblem(operation, data);
  if (overBudget) throw new InvalidInputError([overBudget]);
  let output: unknown;
  try {
    output = operation.handler(data);
  } catch (error) {
    // By brand, so that a module bringing its own copy of the kit gets its 422 or 404.
    if (isCalculationError(error)) throw new InvalidInputError([calculationProblem(error)]);
    if (isNotFoundError(error)) {
      throw error instanceof NotFoundError ? error : new NotFoundError(String(error.message));
    }
    throw new HandlerFaultError(operation, error);
  }
  // A promise is refused below as a wrong shape; its rejection must not go unhandled (the
  // process would exit). Only native promises are tracked as unhandled.
  if (output instanceof Promise) output.catch(ignore);
  if (CHECK_OUTPUT || !testedOutputs.has(operation)) {
    const checked = operation.output.safeParse(output);
    if (!checked.success) throw new OutputContractError(operation, checked.error.message);
    // Production answers the handler's output as it is: it must already be its own parse.
    if (!isDeepStrictEqual(checked.data, output)) {
      throw new OutputContractError(operation, "the output is not what its schema parses it to");
    }
  }
  return output;
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
