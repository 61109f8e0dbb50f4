import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import variance from "./variance.js";

const run = (numbers: string[], kind: string) =>
  execute(variance, { numbers, kind }) as {
    result: number | null;
    decimal: string;
    isExact: boolean;
  };

describe("stats/variance", () => {
  itAnswersItsExamples(variance);

  // Checked against Python's fractions.
  it.each([
    [["1", "2", "3", "4"], "sample", "1.6666666666666666666666666666666666666666666666667", false],
    [["1", "2", "3", "4"], "population", "1.25", true],
    [
      ["0.1", "0.2", "0.4"],
      "sample",
      "0.023333333333333333333333333333333333333333333333333",
      false,
    ],
    [
      ["0.1", "0.2", "0.4"],
      "population",
      "0.015555555555555555555555555555555555555555555555556",
      false,
    ],
    [["-5", "5"], "sample", "50", true],
    [["3", "3", "3"], "sample", "0", true],
    [["7"], "population", "0", true],
    [["1.5", "2.25", "-0.125", "7"], "population", "7.0263671875", true],
    [
      ["1e20", "1e20", "1e-20"],
      "population",
      "2222222222222222222222222222222222222221.7777777777777777777777777777777777777778",
      true,
    ],
    // Catastrophic cancellation in doubles; exact here.
    [["1000000000.1", "1000000000.2", "1000000000.3"], "sample", "0.01", true],
  ])("%j %s → %s", (numbers, kind, decimal, isExact) => {
    const answer = run(numbers, kind);
    expect(answer).toMatchObject({ decimal, isExact });
    expect(answer.result).toBe(Number(decimal));
  });

  it("refuses a sample variance of one number", () => {
    expect(locTypes(problemsOf(variance, { numbers: ["1"] }))).toEqual([
      [["numbers"], "value_error"],
    ]);
  });

  it("refuses numbers whose squares would pass 10,000 digits", () => {
    const [problem] = problemsOf(variance, { numbers: ["1e4990", "1e-10"] });
    expect(problem).toMatchObject({ loc: ["numbers"], type: "value_error" });
    expect(problem?.msg).toMatch(/squares/);
  });

  it("answers for a span just within the limit", () => {
    expect(run(["1e4980", "0"], "population").decimal).toBe(`25${"0".repeat(9958)}`);
  });

  it("handles 10,000 numbers", () => {
    const numbers = Array.from({ length: 10_000 }, (_, i) => String(i % 2));
    expect(run(numbers, "population").decimal).toBe("0.25");
  });
});
