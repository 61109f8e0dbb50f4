import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import baseConvert from "./base-convert.js";

interface Answer {
  value: string;
  decimal: string;
}
const run = (value: string, from: number, to: number, uppercase?: boolean) =>
  execute(
    baseConvert,
    uppercase === undefined ? { value, from, to } : { value, from, to, uppercase },
  ) as Answer;

describe("math/base-convert", () => {
  itAnswersItsExamples(baseConvert);

  it.each([
    ["255", 10, 16, "ff", "255"],
    ["FF", 16, 10, "255", "255"],
    ["fF", 16, 8, "377", "255"],
    ["0", 10, 2, "0", "0"],
    ["-0", 10, 2, "0", "0"],
    ["+101", 2, 10, "5", "5"],
    ["-101", 2, 10, "-5", "-5"],
    ["000111", 2, 10, "7", "7"],
    ["zz", 36, 10, "1295", "1295"],
    ["10", 36, 2, "100100", "36"],
    ["1", 2, 36, "1", "1"],
    ["9007199254740993", 10, 16, "20000000000001", "9007199254740993"],
    [
      "11111111111111111111111111111111111111111111111111111111111111111",
      2,
      16,
      "1ffffffffffffffff",
      "36893488147419103231",
    ],
  ])("%s from base %i to %i → %s", (value, from, to, expected, decimal) => {
    expect(run(value, from, to)).toEqual({ value: expected, decimal, from, to });
  });

  it("round-trips 1,000 digits in every pair of a few bases", () => {
    const digits = "0123456789abcdefghijklmnopqrstuvwxyz";
    for (const from of [2, 3, 7, 10, 16, 36]) {
      const value = Array.from({ length: 1000 }, (_, i) => digits[(i * 7 + 1) % from]).join("");
      const reference = [...value].reduce(
        (n, d) => n * BigInt(from) + BigInt(digits.indexOf(d)),
        0n,
      );
      for (const to of [2, 10, 36]) {
        const answer = run(value, from, to);
        expect(answer.decimal).toBe(reference.toString());
        expect(answer.value).toBe(reference.toString(to));
        if (answer.value.length <= 1000) {
          expect(run(answer.value, to, from).value).toBe(value.replace(/^0+/, ""));
        }
      }
    }
  });

  it("writes capitals on request", () => {
    expect(run("255", 10, 16, true).value).toBe("FF");
  });

  it.each([
    ["2", 2, "'2' at position 0 is not a digit of base 2"],
    ["12g", 16, "'g' at position 2 is not a digit of base 16"],
    ["-1a", 10, "'a' at position 2 is not a digit of base 10"],
    ["0x1f", 16, "'x' at position 1"],
    ["1 0", 10, "' ' at position 1"],
    ["1.5", 10, "'.' at position 1"],
    ["١٢", 10, "'١' at position 0"],
    ["😀", 10, "'😀' at position 0"],
    ["-", 10, "no digits"],
    ["+-1", 10, "'-' at position 1"],
  ])("refuses %j in base %i", (value, from, message) => {
    const [problem, ...rest] = problemsOf(baseConvert, { value, from, to: 10 });
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ loc: ["value"], type: "value_error" });
    expect(problem?.msg).toContain(message);
  });

  it.each([
    [{ value: "", from: 10, to: 2 }, [[["value"], "string_too_short"]]],
    [{ value: "1".repeat(1002), from: 10, to: 2 }, [[["value"], "string_too_long"]]],
    [{ value: "1", from: 1, to: 2 }, [[["from"], "greater_than_equal"]]],
    [{ value: "1", from: 10, to: 37 }, [[["to"], "less_than_equal"]]],
    [{ value: "1", from: 10 }, [[["to"], "missing"]]],
  ])("refuses %j", (input, expected) => {
    expect(locTypes(problemsOf(baseConvert, input))).toEqual(expected);
  });

  it("accepts 1,000 digits and a sign", () => {
    expect(run(`-${"1".repeat(1000)}`, 2, 2).value).toBe(`-${"1".repeat(1000)}`);
  });
});
