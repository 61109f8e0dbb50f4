import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import round from "./round.js";

interface Answer {
  result: number | null;
  decimal: string;
  fixed: string;
}
const run = (number: string, mode: string, places = 0) =>
  execute(round, { number, places, mode }) as Answer;

const MODES = ["half-even", "half-up", "half-down", "up", "down", "ceiling", "floor"];

describe("math/round", () => {
  itAnswersItsExamples(round);

  // The table of the description, row by row: 2.5, −2.5, 2.4, −2.6, then 5.5, −5.5, 0.5.
  it.each([
    ["half-even", ["2", "-2", "2", "-3", "6", "-6", "0"]],
    ["half-up", ["3", "-3", "2", "-3", "6", "-6", "1"]],
    ["half-down", ["2", "-2", "2", "-3", "5", "-5", "0"]],
    ["up", ["3", "-3", "3", "-3", "6", "-6", "1"]],
    ["down", ["2", "-2", "2", "-2", "5", "-5", "0"]],
    ["ceiling", ["3", "-2", "3", "-2", "6", "-5", "1"]],
    ["floor", ["2", "-3", "2", "-3", "5", "-6", "0"]],
  ])("%s", (mode, expected) => {
    const numbers = ["2.5", "-2.5", "2.4", "-2.6", "5.5", "-5.5", "0.5"];
    expect(numbers.map((n) => run(n, mode).decimal)).toEqual(expected);
  });

  it.each([
    // number, mode, places, decimal, fixed
    ["2.675", "half-up", 2, "2.68", "2.68"],
    ["2.675", "half-even", 2, "2.68", "2.68"],
    ["2.665", "half-even", 2, "2.66", "2.66"],
    ["1.005", "half-up", 2, "1.01", "1.01"],
    ["1.2", "half-even", 3, "1.2", "1.200"],
    ["0", "half-even", 2, "0", "0.00"],
    ["-0.004", "half-even", 2, "0", "0.00"],
    ["-0.004", "floor", 2, "-0.01", "-0.01"],
    ["1250", "half-even", -2, "1200", "1200"],
    ["1350", "half-even", -2, "1400", "1400"],
    ["-1250", "half-up", -2, "-1300", "-1300"],
    ["49", "half-up", -2, "0", "0"],
    ["50", "half-up", -2, "100", "100"],
    ["999.5", "half-up", 0, "1000", "1000"],
    ["0.000000000000000000001", "up", 20, "0.00000000000000000001", "0.00000000000000000001"],
    ["9007199254740993.5", "half-even", 0, "9007199254740994", "9007199254740994"],
    ["1e-1000", "ceiling", 1000, `0.${"0".repeat(999)}1`, `0.${"0".repeat(999)}1`],
    ["12345", "half-even", -1000, "0", "0"],
  ])("%s %s to %i places → %s (%s)", (number, mode, places, decimal, fixed) => {
    const answer = run(number, mode, places);
    expect(answer.decimal).toBe(decimal);
    expect(answer.fixed).toBe(fixed);
    expect(answer.result).toBe(Number(decimal));
  });

  it("never answers -0", () => {
    for (const mode of MODES)
      expect(Object.is(run("-0.1", mode === "floor" ? "down" : mode).result, -0)).toBe(false);
  });

  it("pads fixed with up to 1,000 zeros", () => {
    expect(run("1", "half-even", 1000).fixed).toBe(`1.${"0".repeat(1000)}`);
  });

  it.each([
    [{ number: "1", places: 1001 }, [[["places"], "less_than_equal"]]],
    [{ number: "1", places: -1001 }, [[["places"], "greater_than_equal"]]],
    [{ number: "1", places: 1.5 }, [[["places"], "int_parsing"]]],
    [{ number: "1", mode: "half_up" }, [[["mode"], "enum"]]],
    [{ number: "abc" }, [[["number"], "float_parsing"]]],
    [{}, [[["number"], "missing"]]],
  ])("refuses %j", (input, expected) => {
    expect(locTypes(problemsOf(round, input))).toEqual(expected);
  });
});
