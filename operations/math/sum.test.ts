import { describe, expect, it } from "vitest";
import { execute, InvalidInputError } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import sum from "./sum.js";

const run = (numbers: string[]) => execute(sum, { numbers });

describe("math/sum", () => {
  it.each([
    [["0.1", "0.2"], 0.3, "0.3"],
    [["9007199254740993", "1"], 9007199254740994, "9007199254740994"],
    [["1e3", "2.5E-4"], 1000.00025, "1000.00025"],
    [["-0", "0"], 0, "0"],
    [["-0"], 0, "0"],
    [[".5", "5."], 5.5, "5.5"],
    [["99999999999.9999999999", "0.0000000001"], 100000000000, "100000000000"],
    [["1e400"], null, `1${"0".repeat(400)}`],
    [["1e-400"], 0, `0.${"0".repeat(399)}1`],
  ])("%j → %s (%s)", (numbers, result, decimal) => {
    expect(run(numbers)).toEqual({ result, decimal, count: numbers.length });
  });

  it("refuses a result longer than 10,000 digits in plain notation", () => {
    expect(() => run(["1e9999", "1e-9999"])).toThrow(InvalidInputError);
  });

  it("lists every bad item with its index", () => {
    expect(locTypes(problemsOf(sum, { numbers: ["1", "abc", "NaN", "0x10"] }))).toEqual([
      [["numbers", "1"], "float_parsing"],
      [["numbers", "2"], "float_parsing"],
      [["numbers", "3"], "float_parsing"],
    ]);
  });

  itAnswersItsExamples(sum);

  it("refuses a list whose size times its digit span is too much work, before adding", () => {
    const numbers = Array.from({ length: 2000 }, (_, i) => (i % 2 ? "1e9999" : "1e-9999"));
    expect(locTypes(problemsOf(sum, { numbers }))).toEqual([[["numbers"], "value_error"]]);
  });

  it("still adds a short list spanning many digits exactly", () => {
    expect(run(["1e9999", "-1e9999", "1e-9999"])).toEqual({
      result: 0,
      decimal: `0.${"0".repeat(9998)}1`,
      count: 3,
    });
  });
});
