import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import percentChange from "./percent-change.js";

interface Answer {
  result: number | null;
  decimal: string;
  isExact: boolean;
}
const run = (from: string, to: string) => execute(percentChange, { from, to }) as Answer;

describe("math/percent-change", () => {
  itAnswersItsExamples(percentChange);

  it.each([
    ["100", "100", "0", true],
    ["100", "0", "-100", true],
    ["0.1", "0.3", "200", true],
    ["8", "9", "12.5", true],
    ["-50", "50", "200", true],
    ["50", "-50", "-200", true],
    ["-100", "-150", "-50", true],
    ["6", "7", "16.666666666666666666666666666666666666666666666667", false],
    ["7", "8", "14.285714285714285714285714285714285714285714285714", false],
    ["1e-50", "2e-50", "100", true],
    ["1024", "1025", "0.09765625", true],
  ])("from %s to %s → %s", (from, to, decimal, isExact) => {
    const answer = run(from, to);
    expect(answer).toMatchObject({ decimal, isExact });
    expect(answer.result).toBe(Number(decimal));
  });

  it.each([
    [{ from: "0", to: "5" }, [[["from"], "value_error"]]],
    [{ from: "-0", to: "0" }, [[["from"], "value_error"]]],
    [{ from: "1e-9999", to: "1e9999" }, [[[], "value_error"]]],
    [{ from: "1" }, [[["to"], "missing"]]],
  ])("refuses %j", (input, expected) => {
    expect(locTypes(problemsOf(percentChange, input))).toEqual(expected);
  });
});
