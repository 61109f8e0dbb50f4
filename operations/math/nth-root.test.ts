import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import nthRoot from "./nth-root.js";

interface Answer {
  number: number | null;
  degree: number;
  precision: number;
  result: number | null;
  decimal: string;
  isExact: boolean;
}

const root = (number: string, degree: number, precision?: number) =>
  execute(nthRoot, { number, degree, ...(precision === undefined ? {} : { precision }) }) as Answer;

// √2 to 101 significant digits (OEIS A002193).
const SQRT2_101 =
  "1.4142135623730950488016887242096980785696718753769480731766797379907324784621070388503875343276415727";
// The largest and smallest inputs: 93 (90, 89) significant digits whose plain notation
// takes 10,000 (9,999) digits, the most accepted.
const MANTISSA = `9.${"87654321".repeat(12).slice(0, 92)}`;
const HUGE = `${MANTISSA}e9999`;
const TINY = `${MANTISSA.slice(0, 91)}e-9909`;
const NEGATIVE_TINY = `-${MANTISSA.slice(0, 90)}e-9910`;

describe("math/nth-root", () => {
  itAnswersItsExamples(nthRoot);

  describe("irrational roots, correctly rounded", () => {
    // Expected digits computed independently with Python's decimal module at 1200 digits.
    it.each([
      ["2", 2, 20, "1.4142135623730950488", Math.SQRT2],
      ["2", 2, 100, `${SQRT2_101.slice(0, 100)}3`, Math.SQRT2],
      ["2", 2, 1, "1", Math.SQRT2],
      ["3", 2, 1, "2", 1.7320508075688772],
      ["2", 1000, 20, "1.0006933874625806325", 1.0006933874625807],
      [
        "2",
        1000,
        100,
        "1.000693387462580632537568639303859195708293510980200071508777723179295631412394110052811401973498696",
        1.0006933874625807,
      ],
      ["10", 3, 50, "2.1544346900318837217592935665193504952593449421921", 2.154434690031884],
      ["0.5", 7, 30, "0.905723664263906671594172873215", 0.9057236642639067],
      ["-5", 5, 20, "-1.3797296614612148324", -1.379729661461215],
      [
        HUGE,
        1000,
        100,
        "9999875775.580606137282035288866242368515856279742471752479557976037365114617141843436117252756159922",
        9999875775.580606,
      ],
    ])("%s, degree %i, %i digits → %s", (number, degree, precision, decimal, result) => {
      expect(root(number, degree, precision)).toMatchObject({ decimal, result, isExact: false });
    });

    it("agrees with the published expansion of √2", () => {
      expect(SQRT2_101.startsWith(root("2", 2, 100).decimal.slice(0, 99))).toBe(true);
    });

    it("defaults to 20 significant digits", () => {
      expect(root("2", 2)).toEqual({
        number: 2,
        degree: 2,
        precision: 20,
        result: Math.SQRT2,
        decimal: "1.4142135623730950488",
        isExact: false,
      });
    });
  });

  describe("rounding right next to a tie, where rounding an approximation fails", () => {
    // Each root agrees with a rounding tie for 60 to 70 digits. A 42-digit approximation,
    // rounded, gives the answer in the comment; the true root lies on the other side.
    it.each([
      // √(6.25 + 10^-60) = 2.5000…0002: the approximation reads 2.5, which ties to 2.
      [`6.25${"0".repeat(58)}1`, 2, 1, "3"],
      // √(1.5625 + 10^-60) = 1.25000…: the approximation reads 1.25, which ties to 1.2.
      [`1.5625${"0".repeat(56)}1`, 2, 2, "1.3"],
      // ∛(3.375 − 10^-70) = 1.4999…: the approximation reads 1.5, which ties to 2.
      [`3.374${"9".repeat(67)}`, 3, 1, "1"],
      // √(1.8225 − 10^-70) = 1.34999…: the approximation reads 1.35, which ties to 1.4.
      [`1.8224${"9".repeat(66)}`, 2, 2, "1.3"],
      // Just below ties whose approximations happen to fall below them too.
      [`12.24${"9".repeat(58)}`, 2, 1, "3"],
      [`1.56249${"9".repeat(55)}`, 2, 2, "1.2"],
    ])("%s, degree %i, %i digits → %s", (number, degree, precision, decimal) => {
      expect(root(number, degree, precision)).toMatchObject({ decimal, isExact: false });
    });
  });

  describe("exact roots", () => {
    it.each([
      ["27", 3, 20, "3", 3],
      ["16", 4, 20, "2", 2],
      ["0.25", 2, 20, "0.5", 0.5],
      ["0.001", 3, 20, "0.1", 0.1],
      ["-8", 3, 20, "-2", -2],
      ["-0.125", 3, 20, "-0.5", -0.5],
      ["1", 1000, 20, "1", 1],
      ["1024", 10, 1, "2", 2],
      ["1e-9999", 3, 20, `0.${"0".repeat(3332)}1`, 0],
      ["-1e9999", 9, 20, `-1${"0".repeat(1111)}`, null],
      ["1e9998", 2, 20, `1${"0".repeat(4999)}`, null],
      ["1e-9998", 2, 20, `0.${"0".repeat(4998)}1`, 0],
      ["1e9000", 1000, 20, "1000000000", 1e9],
      // 9007199254740993² : the root is exact but lies between two doubles, ties to even.
      [(9007199254740993n ** 2n).toString(), 2, 20, "9007199254740993", 9007199254740992],
      ["1.5129", 2, 3, "1.23", 1.23],
      // Integers below 2^53 are checked in doubles; at 2^53 and above, as decimals.
      ["9007199254740991", 1, 20, "9007199254740991", 9007199254740991],
      ["4503599627370496", 52, 20, "2", 2],
      ["9007199254740992", 53, 20, "2", 2],
      ["999970000299999", 3, 20, "99999", 99999],
    ])("%s, degree %i, %i digits → %s", (number, degree, precision, decimal, result) => {
      expect(root(number, degree, precision)).toMatchObject({ decimal, result, isExact: true });
    });

    it.each([
      // Next to a perfect power (expected digits from Python's decimal module): not exact.
      ["9007199254740993", 53, "2.0000000000000000042"],
      ["999970000299998", 3, "99998.999999999966666"],
      ["999970000300000", 3, "99999.000000000033334"],
    ])("%s, degree %i → %s, not exact", (number, degree, decimal) => {
      expect(root(number, degree)).toMatchObject({ decimal, isExact: false });
    });

    it.each([
      // Exact roots with more digits than asked for: rounded, ties to even, isExact false.
      ["1.5129", 2, 2, "1.2"],
      ["1.5625", 2, 2, "1.2"],
      ["1.8225", 2, 2, "1.4"],
      ["4.2025", 2, 2, "2"],
      ["-3.375", 3, 1, "-2"],
    ])("%s, degree %i, %i digits → %s", (number, degree, precision, decimal) => {
      expect(root(number, degree, precision)).toMatchObject({ decimal, isExact: false });
    });

    it("finds a terminating root longer than the first working precision", () => {
      // m = (2^53 + 1) · 2^70 has 38 digits and is a midpoint between two doubles.
      const m = (2n ** 53n + 1n) * 2n ** 70n;
      const square = (m * m).toString();
      expect(root(square, 2, 20)).toMatchObject({
        decimal: "10633823966279328164000000000000000000",
        result: 1.0633823966279327e37,
        isExact: false,
      });
      expect(root(square, 2, 38)).toMatchObject({
        decimal: m.toString(),
        result: 1.0633823966279327e37,
        isExact: true,
      });
    });
  });

  describe("zero and degree 1", () => {
    it.each([
      ["0", 2, 20, "0", 0, true],
      ["-0", 2, 20, "0", 0, true],
      ["0e-5", 999, 20, "0", 0, true],
      ["1.23456789", 1, 3, "1.23", 1.23456789, false],
      ["1.23456789", 1, 20, "1.23456789", 1.23456789, true],
      ["-2.5", 1, 1, "-2", -2.5, false],
      ["12345", 1, 2, "12000", 12345, false],
    ])("%s, degree %i, %i digits → %s", (number, degree, precision, decimal, result, isExact) => {
      expect(root(number, degree, precision)).toMatchObject({ decimal, result, isExact });
    });

    it("refuses a number too long to write in plain notation", () => {
      expect(locTypes(problemsOf(nthRoot, { number: "1e10000", degree: 1 }))).toEqual([
        [["number"], "value_error"],
      ]);
    });
  });

  describe("the largest and smallest inputs, to 100 digits", () => {
    // Significant digits computed independently with Python's decimal module at 1200 digits.
    it.each([
      [
        HUGE,
        2,
        "9938079904471201316088813974842255266831081894308645860739441342307660602003905825516152931748108543",
        5000,
        null,
      ],
      [
        TINY,
        2,
        "9938079904471201316088813974842255266831081894308645860739441342307660602003905825516152927899276538",
        5056,
        0,
      ],
      [
        TINY,
        1000,
        "1235932079959278368540103099432222237700291764029951522330309474507799221484197953686432489094196289",
        111,
        1.2359320799592784e-10,
      ],
      [
        NEGATIVE_TINY,
        999,
        "1205245949599654243564200717728319627550114954404407776229495904428461383933419490202967479379959962",
        112,
        -1.2052459495996543e-10,
      ],
    ])("%s, degree %i", (number, degree, significand, length, result) => {
      const answer = root(number, degree, 100);
      expect(answer.decimal.replace(/[-.]/g, "").replace(/^0+|0+$/g, "")).toBe(significand);
      expect(answer.decimal).toHaveLength(length);
      expect(answer).toMatchObject({ result, isExact: false });
    });
  });

  it.each([
    [{ number: "-8", degree: 2 }, [[["number"], "value_error"]]],
    [{ number: "-1e-9998", degree: 1000 }, [[["number"], "value_error"]]],
    [{ number: "8", degree: 0 }, [[["degree"], "greater_than_equal"]]],
    [{ number: "8", degree: 1001 }, [[["degree"], "less_than_equal"]]],
    [{ number: "8", degree: "three" }, [[["degree"], "int_parsing"]]],
    [{ number: "8", degree: 2, precision: 0 }, [[["precision"], "greater_than_equal"]]],
    [{ number: "8", degree: 2, precision: 101 }, [[["precision"], "less_than_equal"]]],
    [{ number: "eight", degree: 2 }, [[["number"], "float_parsing"]]],
    [{ degree: 2 }, [[["number"], "missing"]]],
    [{ number: "8" }, [[["degree"], "missing"]]],
  ])("rejects %j", (input, expected) => {
    expect(locTypes(problemsOf(nthRoot, input))).toEqual(expected);
  });
});
