/**
 * Helpers shared by the operation tests (the `.test.ts` files under `operations/`), and by
 * nothing else: the loader skips files whose name starts with `_`, so this is never served.
 */
import { expect, it } from "vitest";
import { execute, InvalidInputError } from "../src/core/runner.js";
import type { AnyOperation } from "../src/kit/define.js";
import type { Problem } from "../src/kit/errors.js";

/** `area/name`, for messages. */
const idOf = (operation: AnyOperation) => `${operation.area}/${operation.name}`;

/** A short, one-line rendering of a value for an error message (inputs can be 100,000 characters). */
function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
}

/**
 * Runs `operation` on `input` through the real runner and returns the problems of the
 * {@link InvalidInputError} it throws: schema problems and `CalculationError`s alike, in
 * the order the runner reports them.
 *
 * @throws {Error} when the input is accepted, or when anything other than an
 * `InvalidInputError` is thrown (that error is kept as the `cause`)
 *
 * @example
 * expect(problemsOf(subtract, { a: "1" })).toEqual([
 *   expect.objectContaining({ loc: ["b"], type: "missing" }),
 * ]);
 */
export function problemsOf(operation: AnyOperation, input: Record<string, unknown>): Problem[] {
  let output: unknown;
  try {
    output = execute(operation, input);
  } catch (error) {
    if (error instanceof InvalidInputError) return error.problems;
    throw new Error(
      `expected ${idOf(operation)} to refuse ${preview(input)} with an InvalidInputError, ` +
        `but it threw ${error instanceof Error ? `${error.name}: ${error.message}` : preview(error)}`,
      { cause: error },
    );
  }
  throw new Error(
    `expected ${idOf(operation)} to refuse ${preview(input)}, but it answered ${preview(output)}`,
  );
}

/**
 * Each problem as a `[loc, type]` pair: where and what, without the message, for tests
 * that pin those two exactly.
 *
 * @example
 * expect(locTypes(problemsOf(subtract, { a: "abc", b: "1" }))).toEqual([[["a"], "float_parsing"]]);
 */
export function locTypes(problems: Problem[]): [string[], string][] {
  return problems.map((problem) => [problem.loc, problem.type]);
}

/**
 * Declares one test per documented example of `operation`, titled `example: <title>`:
 * running the example's input must answer exactly its output.
 *
 * @example
 * describe("math/subtract", () => {
 *   itAnswersItsExamples(subtract);
 * });
 */
export function itAnswersItsExamples(operation: AnyOperation): void {
  // `%s` of the title rather than `$title`, which vitest quotes and cuts at 40 characters.
  it.each(operation.examples.map((example) => [example.title, example] as const))(
    "example: %s",
    (_title, { input, output }) => {
      expect(execute(operation, input)).toEqual(output);
    },
  );
}
