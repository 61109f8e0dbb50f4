import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import subtract from "./subtract.js";

const run = (a: string, b: string) => execute(subtract, { a, b });

describe("math/subtract", () => {
  itAnswersItsExamples(subtract);

  it.each([
    // a, b, echoed a, echoed b, result, decimal
    ["0.3", "0.1", 0.3, 0.1, 0.2, "0.2"],
    ["1.5", "4", 1.5, 4, -2.5, "-2.5"],
    ["0", "0", 0, 0, 0, "0"],
    ["-0", "0", 0, 0, 0, "0"],
    ["5", "5", 5, 5, 0, "0"],
    ["-2", "-3", -2, -3, 1, "1"],
    [".5", "5.", 0.5, 5, -4.5, "-4.5"],
    ["1e3", "2.5E-4", 1000, 0.00025, 999.99975, "999.99975"],
    ["9007199254740993", "9007199254740992", 9007199254740992, 9007199254740992, 1, "1"],
    ["1", "1e-30", 1, 1e-30, 1, `0.${"9".repeat(30)}`],
    ["1e400", "1", null, 1, null, `${"9".repeat(400)}`],
    ["1e400", "1e400", null, null, 0, "0"],
    ["0", "1e-400", 0, 0, -0, `-0.${"0".repeat(399)}1`],
  ])("%s − %s", (a, b, echoedA, echoedB, result, decimal) => {
    expect(run(a, b)).toEqual({ a: echoedA, b: echoedB, result, decimal });
  });

  it("refuses a difference longer than 10,000 digits in plain notation", () => {
    expect(locTypes(problemsOf(subtract, { a: "1e9999", b: "1e-9999" }))).toEqual([
      [[], "value_error"],
    ]);
  });

  it.each([
    [{ a: "abc", b: "1" }, [[["a"], "float_parsing"]]],
    [{ a: "1", b: "0x10" }, [[["b"], "float_parsing"]]],
    [
      { a: "NaN", b: "Infinity" },
      [
        [["a"], "float_parsing"],
        [["b"], "float_parsing"],
      ],
    ],
    [{ a: "1" }, [[["b"], "missing"]]],
    [{ a: "1", b: "1e10001" }, [[["b"], "value_error"]]],
    [{ a: "1".repeat(101), b: "1" }, [[["a"], "string_too_long"]]],
  ])("rejects %j", (input, expected) => {
    expect(locTypes(problemsOf(subtract, input))).toEqual(expected);
  });
});
