import { describe, expect, it } from "vitest";
import {
  CALCULATION_ERROR,
  CalculationError,
  calculationProblem,
  isCalculationError,
  isNotFoundError,
  NOT_FOUND_ERROR,
  NotFoundError,
} from "./errors.js";

/** What another copy of the kit (another file, another version) would throw. */
const foreign = (brand: symbol, fields: object) => ({ ...fields, [brand]: true });

describe("recognising the kit's errors by brand", () => {
  it.each([
    ["a CalculationError", new CalculationError("no"), true, false],
    ["a NotFoundError", new NotFoundError("none"), false, true],
    ["another copy's calculation error", foreign(CALCULATION_ERROR, { message: "x" }), true, false],
    ["another copy's not-found error", foreign(NOT_FOUND_ERROR, { message: "x" }), false, true],
    ["a plain Error", new Error("x"), false, false],
    [
      "an Error named CalculationError",
      Object.assign(new Error("x"), { name: "CalculationError" }),
      false,
      false,
    ],
    ["a brand that is not true", { [CALCULATION_ERROR]: "yes", message: "x" }, false, false],
    ["null", null, false, false],
    ["a string", "CalculationError", false, false],
  ])("%s", (_case, value, calculation, notFound) => {
    expect(isCalculationError(value)).toBe(calculation);
    expect(isNotFoundError(value)).toBe(notFound);
  });

  it("uses brands shared across copies in one process (Symbol.for)", () => {
    expect(CALCULATION_ERROR).toBe(Symbol.for("utility-calculation-service.calculation-error"));
    expect(NOT_FOUND_ERROR).toBe(Symbol.for("utility-calculation-service.not-found"));
  });
});

describe("the 422 problem of a calculation error", () => {
  it.each([
    [
      "this kit's, with a location",
      new CalculationError("an even root of a negative number", ["number"]),
      {
        loc: ["number"],
        msg: "Value error, an even root of a negative number",
        type: "value_error",
      },
    ],
    [
      "this kit's, without one",
      new CalculationError("too large"),
      { loc: [], msg: "Value error, too large", type: "value_error" },
    ],
    [
      "another copy's, read defensively",
      foreign(CALCULATION_ERROR, { message: 42, loc: ["a", 0] }),
      { loc: ["a", "0"], msg: "Value error, 42", type: "value_error" },
    ],
    [
      "another copy's with a location that is not a list",
      foreign(CALCULATION_ERROR, { message: "x", loc: "a" }),
      { loc: [], msg: "Value error, x", type: "value_error" },
    ],
  ])("%s", (_case, error, problem) => {
    expect(calculationProblem(error as { message: unknown; loc?: unknown })).toEqual(problem);
    if (error instanceof CalculationError) expect(error.toProblem()).toEqual(problem);
  });
});
