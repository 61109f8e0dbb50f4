import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import range from "./range.js";

const run = (numbers: string[]) => execute(range, { numbers });

describe("stats/range", () => {
  itAnswersItsExamples(range);

  it.each([
    // numbers, result, decimal, min, max, minDecimal, maxDecimal
    [["0.3", "0.1", "0.2"], 0.2, "0.2", 0.1, 0.3, "0.1", "0.3"],
    [["-2.5", "1e3", "7"], 1002.5, "1002.5", -2.5, 1000, "-2.5", "1000"],
    [["42"], 0, "0", 42, 42, "42", "42"],
    [["-0", "0"], 0, "0", 0, 0, "0", "0"],
    [["5", "5", "5"], 0, "0", 5, 5, "5", "5"],
    [
      ["9007199254740993", "9007199254740992"],
      1,
      "1",
      9007199254740992,
      9007199254740992,
      "9007199254740992",
      "9007199254740993",
    ],
    [[".5", "5.", "-.5"], 5.5, "5.5", -0.5, 5, "-0.5", "5"],
    [
      ["1e400", "-1e400"],
      null,
      `2${"0".repeat(400)}`,
      null,
      null,
      `-1${"0".repeat(400)}`,
      `1${"0".repeat(400)}`,
    ],
    [["1e-400", "0"], 0, `0.${"0".repeat(399)}1`, 0, 0, "0", `0.${"0".repeat(399)}1`],
  ])("%j → %s", (numbers, result, decimal, min, max, minDecimal, maxDecimal) => {
    expect(run(numbers)).toEqual({
      result,
      decimal,
      min,
      max,
      minDecimal,
      maxDecimal,
      count: numbers.length,
    });
  });

  it("handles the largest list", () => {
    const numbers = Array.from({ length: 10_000 }, (_, i) => `${i}.5`);
    expect(run(numbers)).toMatchObject({
      decimal: "9999",
      minDecimal: "0.5",
      maxDecimal: "9999.5",
    });
  });

  it.each([
    [["6e9999", "-6e9999"], "the result needs 10001 digits"],
    [["1e9999", "1e-9999"], "the result needs 19998 digits"],
  ])("refuses %j, whose plain notation is too long", (numbers, message) => {
    const [problem] = problemsOf(range, { numbers });
    expect(problem?.loc).toEqual([]);
    expect(problem?.type).toBe("value_error");
    expect(problem?.msg).toContain(message);
  });

  it.each([
    [{ numbers: [] }, [[["numbers"], "too_short"]]],
    [{ numbers: Array(10_001).fill("1") }, [[["numbers"], "too_long"]]],
    [
      { numbers: ["1", "abc", "NaN"] },
      [
        [["numbers", "1"], "float_parsing"],
        [["numbers", "2"], "float_parsing"],
      ],
    ],
    [{}, [[["numbers"], "missing"]]],
  ])("rejects %#", (input, expected) => {
    expect(locTypes(problemsOf(range, input))).toEqual(expected);
  });
});
