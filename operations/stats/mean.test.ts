import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import mean from "./mean.js";

const run = (numbers: string[]) =>
  execute(mean, { numbers }) as { result: number | null; decimal: string; isExact: boolean };

describe("stats/mean", () => {
  itAnswersItsExamples(mean);

  it.each([
    [["1", "2", "3", "4"], "2.5", true],
    [["0.1", "0.2", "0.4"], "0.23333333333333333333333333333333333333333333333333", false],
    [["-5", "5"], "0", true],
    [["1.5", "2.25", "-0.125", "7"], "2.65625", true],
    [["9007199254740993", "9007199254740993"], "9007199254740993", true],
    [["1e20", "1e20", "1e-20"], "66666666666666666666.66666666666666666667", true],
    [["1", "2"], "1.5", true],
    [["1", "1", "2e-20"], "0.66666666666666666667333333333333333333333333333333", false],
    [["2", "3", "7"], "4", true],
  ])("mean%j = %s", (numbers, decimal, isExact) => {
    const answer = run(numbers);
    expect(answer).toMatchObject({ decimal, isExact });
    expect(answer.result).toBe(Number(decimal));
  });

  it("averages 10,000 numbers", () => {
    const numbers = Array.from({ length: 10_000 }, (_, i) => String(i + 1));
    expect(run(numbers).decimal).toBe("5000.5");
  });

  it.each([
    [[], [[["numbers"], "too_short"]]],
    [["1", "x"], [[["numbers", "1"], "float_parsing"]]],
  ])("refuses %j", (numbers, expected) => {
    expect(locTypes(problemsOf(mean, { numbers }))).toEqual(expected);
  });
});
