import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import percentage from "./percentage.js";

const run = (percent: string, of: string) =>
  execute(percentage, { percent, of }) as { result: number | null; decimal: string };

describe("math/percentage", () => {
  itAnswersItsExamples(percentage);

  it.each([
    ["50", "80", "40"],
    ["100", "7.5", "7.5"],
    ["0", "123", "0"],
    ["12.5", "0", "0"],
    ["-20", "50", "-10"],
    ["20", "-50", "-10"],
    ["0.5", "200", "1"],
    ["33", "1", "0.33"],
    ["1", "1e-9990", `0.${"0".repeat(9991)}1`],
    ["7", "9007199254740993", "630503947831869.51"],
  ])("%s %% of %s = %s", (percent, of, expected) => {
    const answer = run(percent, of);
    expect(answer.decimal).toBe(expected);
    expect(answer.result).toBe(Number(expected));
  });

  it("refuses an answer of more than 10,000 digits", () => {
    expect(locTypes(problemsOf(percentage, { percent: "1", of: "1e-9999" }))).toEqual([
      [[], "value_error"],
    ]);
  });

  it.each([
    [{ percent: "x", of: "1" }, [[["percent"], "float_parsing"]]],
    [{ percent: "1" }, [[["of"], "missing"]]],
  ])("refuses %j", (input, expected) => {
    expect(locTypes(problemsOf(percentage, input))).toEqual(expected);
  });
});
