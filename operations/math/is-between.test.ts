import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import isBetween from "./is-between.js";

type Input = { number: string; lower: string; upper: string; inclusive?: boolean };

const answer = (input: Input) => (execute(isBetween, input) as { isBetween: boolean }).isBetween;

const TWO_53 = "9007199254740992";
const TWO_53_PLUS_1 = "9007199254740993";
const TWO_53_PLUS_2 = "9007199254740994";

describe("math/is-between", () => {
  itAnswersItsExamples(isBetween);

  it.each([
    // number, lower, upper, inclusive, isBetween
    ["5", "1", "10", true, true],
    ["0", "1", "10", true, false],
    ["11", "1", "10", true, false],
    ["-5", "-10", "-1", true, true],
    // bounds in either order
    ["5", "10", "1", true, true],
    ["0.3", "0.5", "0.1", false, true],
    ["11", "10", "1", true, false],
    // on a bound
    ["1", "1", "10", true, true],
    ["10", "1", "10", true, true],
    ["1", "1", "10", false, false],
    ["10", "1", "10", false, false],
    ["10", "10", "1", false, false],
    // equal bounds
    ["7", "7", "7", true, true],
    ["7", "7", "7", false, false],
    ["7.0000000000000000000001", "7", "7", true, false],
    // exact where doubles cannot tell the numbers apart
    [TWO_53_PLUS_1, TWO_53, TWO_53, true, false],
    [TWO_53_PLUS_1, TWO_53, TWO_53, false, false],
    [TWO_53_PLUS_1, TWO_53, TWO_53_PLUS_2, false, true],
    [TWO_53, TWO_53_PLUS_1, TWO_53_PLUS_2, true, false],
    ["0.30000000000000000001", "0.1", "0.3", true, false],
    ["0.1", "0.1000000000000000000001", "1", true, false],
    // negative zero equals zero
    ["-0", "0", "1", true, true],
    ["-0", "0", "1", false, false],
    ["0", "-0", "-0", true, true],
    ["0", "-0", "0", false, false],
    // far beyond the double range
    ["1e5000", "1e4999", "1e5001", false, true],
    ["1e-5000", "0", "1e-4999", false, true],
    ["-1e-5000", "0", "1e-4999", true, false],
  ])("%s between %s and %s (inclusive %s) → %s", (number, lower, upper, inclusive, expected) => {
    expect(answer({ number, lower, upper, inclusive })).toBe(expected);
  });

  it("is inclusive by default", () => {
    expect(answer({ number: "1", lower: "1", upper: "2" })).toBe(true);
  });

  it("echoes the inputs as given, as the nearest doubles", () => {
    expect(execute(isBetween, { number: TWO_53_PLUS_1, lower: "1e400", upper: "-0.1" })).toEqual({
      number: 9007199254740992,
      lower: null,
      upper: -0.1,
      inclusive: true,
      isBetween: true,
    });
  });

  it.each([
    [{ lower: "1", upper: "2" }, [[["number"], "missing"]]],
    [{ number: "x", lower: "1", upper: "2" }, [[["number"], "float_parsing"]]],
    [
      { number: "1", lower: "1_000", upper: "1,5" },
      [
        [["lower"], "float_parsing"],
        [["upper"], "float_parsing"],
      ],
    ],
    [
      { number: "1", lower: "1", upper: "2", inclusive: "maybe" },
      [[["inclusive"], "bool_parsing"]],
    ],
  ])("rejects %j", (input, expected) => {
    expect(locTypes(problemsOf(isBetween, input))).toEqual(expected);
  });
});
