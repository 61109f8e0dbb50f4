import { describe, expect, it } from "vitest";
import { Exact, toPlain } from "#kit";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import product from "./product.js";

const run = (numbers: string[]) => execute(product, { numbers });

const HUNDRED_DIGITS = `${"9".repeat(99)}7`.slice(0, 100);
const TWO_141 = (2n ** 141n).toString(); // 43 digits
const FIVE_141 = (5n ** 141n).toString(); // 99 digits

describe("stats/product", () => {
  itAnswersItsExamples(product);

  it.each([
    [["0.1", "0.2", "3"], 0.06, "0.06"],
    [["99999999999", "99999999999"], 9.9999999998e21, "9999999999800000000001"],
    [["7"], 7, "7"],
    [["-2", "3"], -6, "-6"],
    [["-2", "-3"], 6, "6"],
    [["-2", "-3", "-0.5"], -3, "-3"],
    [["1.5", "1.5"], 2.25, "2.25"],
    [["2e-5", "5e4"], 1, "1"],
    [["4", "25", "0.01"], 1, "1"],
    [["1e3", "2.5E-4"], 0.25, "0.25"],
    [[".5", "5."], 2.5, "2.5"],
    [["-1", "1e-30"], -1e-30, `-0.${"0".repeat(29)}1`],
    [["9007199254740993", "1"], 9007199254740992, "9007199254740993"],
    [["3", "0.333333333333333333333"], 1, `0.${"9".repeat(21)}`],
    [["1e200", "1e200"], null, `1${"0".repeat(400)}`],
    [["1e-200", "1e-200"], 0, `0.${"0".repeat(399)}1`],
    [["1e5000", "1e-5000"], 1, "1"],
  ])("%j → %s (%s)", (numbers, result, decimal) => {
    expect(run(numbers)).toEqual({ result, decimal, count: numbers.length });
  });

  it.each([
    [["0"]],
    [["-0", "5"]],
    [["-1.5", "1e9999", "0"]],
    [[...Array(9_999).fill(HUNDRED_DIGITS), "0"]],
  ])("any zero factor gives 0 (%#)", (numbers) => {
    expect(run(numbers)).toEqual({ result: 0, decimal: "0", count: numbers.length });
  });

  it("multiplies 10,000 small factors", () => {
    const out = run(Array(10_000).fill("2")) as { decimal: string; result: number | null };
    expect(out.result).toBeNull();
    expect(out.decimal).toBe((2n ** 10_000n).toString());
  });

  it("multiplies out factors that cancel into powers of ten", () => {
    // 5^100 × 2^100 = 10^100. The fives alone would be 10,485 digits long; the product is 1.
    const fives = Array(150).fill(`${5n ** 100n}e-100`);
    const twos = Array(150).fill((2n ** 100n).toString());
    expect(run([...fives, ...twos])).toEqual({ result: 1, decimal: "1", count: 300 });
  });

  it("keeps the surplus twos or fives in the digits", () => {
    expect(run(["8", "8", "5", "1e-3"])).toEqual({ result: 0.32, decimal: "0.32", count: 4 });
    expect(run(["125", "125", "2", "0.001"])).toEqual({
      result: 31.25,
      decimal: "31.25",
      count: 4,
    });
  });

  it.each([
    ["10,000 factors of 100 digits", Array(10_000).fill(HUNDRED_DIGITS), "at least 10099"],
    ["2^141 many times", Array(1_000).fill(TWO_141), "at least 42446"],
    ["5^141 many times", Array(1_000).fill(FIVE_141), "at least 98555"],
    ["an exponent too large to write down", ["1e9999", "10"], "10001 digits in plain notation"],
    ["a fraction too long to write down", ["1e-9999", "0.1"], "10001 digits in plain notation"],
  ])("refuses %s with a 422", (_, numbers, message) => {
    const problems = problemsOf(product, { numbers });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.loc).toEqual([]);
    expect(problems[0]?.type).toBe("value_error");
    expect(problems[0]?.msg).toContain(message);
  });

  it("refuses long factors even when powers of ten could absorb them", () => {
    // 2^141 and 5^141 alternate: their digits cancel, but the leading 99 factors alone are too long.
    const numbers = [...Array(99).fill(HUNDRED_DIGITS)];
    while (numbers.length < 10_000) numbers.push(TWO_141, FIVE_141);
    expect(problemsOf(product, { numbers: numbers.slice(0, 10_000) })[0]?.type).toBe("value_error");
  });

  it.each([
    [{ numbers: [] }, [[["numbers"], "too_short"]]],
    [{ numbers: Array(10_001).fill("1") }, [[["numbers"], "too_long"]]],
    [
      { numbers: ["1", "x", "1e10001"] },
      [
        [["numbers", "1"], "float_parsing"],
        [["numbers", "2"], "value_error"],
      ],
    ],
    [{}, [[["numbers"], "missing"]]],
  ])("rejects %#", (input, expected) => {
    expect(locTypes(problemsOf(product, input))).toEqual(expected);
  });

  // Factors of up to 14 digits are split in double arithmetic; decimal.js multiplying one by one is the reference.
  const byDecimalJs = (numbers: string[]) =>
    toPlain(numbers.reduce((total, n) => total.times(n), new Exact(1)));
  it.each([
    ["14-digit factors", ["99999999999999", "-12345678901234", "0.00000000000001"]],
    ["15-digit factors", ["999999999999999", "123456789012345", "-1.25"]],
    ["small rests past 2^53", Array.from({ length: 400 }, (_, i) => `${(i % 97) + 3}.${i % 10}`)],
    ["twos and fives", ["1024", "0.0032", "6.25e-7", "-4096e3", "781.25"]],
  ])("multiplies %s exactly", (_title, numbers) => {
    expect((run(numbers) as { decimal: string }).decimal).toBe(byDecimalJs(numbers));
  });
});
