import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import simpleInterest from "./simple-interest.js";

type Input = { principal: string; rate: string; time: string; timeUnit?: string };

const run = (input: Input) => execute(simpleInterest, input) as Record<string, unknown>;

/** The title of a row of {@link expectInterest}. */
const INTEREST_ROW = "P=%s r=%s%% t=%s %s → %s, %s";

/** Checks one row: principal, rate, time, timeUnit → the answer's figures. */
function expectInterest(
  principal: string,
  rate: string,
  time: string,
  timeUnit: string,
  interest: number,
  totalAmount: number,
  interestDecimal: string,
  totalAmountDecimal: string,
  isExact: boolean,
) {
  expect(run({ principal, rate, time, timeUnit })).toMatchObject({
    interest,
    totalAmount,
    interestDecimal,
    totalAmountDecimal,
    isExact,
  });
}

describe("finance/simple-interest", () => {
  itAnswersItsExamples(simpleInterest);

  // Expected values computed independently with Python's fractions (exact rationals,
  // float() correctly rounded) and decimal (34 digits, ROUND_HALF_EVEN).
  describe("computes I = P × r × t / (100 × units per year)", () => {
    it.each([
      // principal, rate, time, timeUnit → interest, totalAmount, interestDecimal, totalAmountDecimal, isExact
      ["1000", "5", "3", "years", 150, 1150, "150", "1150", true],
      ["1000", "12", "6", "months", 60, 1060, "60", "1060", true],
      ["1000", "12", "1", "months", 10, 1010, "10", "1010", true],
      ["1000", "3", "1", "months", 2.5, 1002.5, "2.5", "1002.5", true],
      ["1000", "5", "365", "days", 50, 1050, "50", "1050", true],
      ["1000", "5", "730", "days", 100, 1100, "100", "1100", true],
      ["73", "100", "1", "days", 0.2, 73.2, "0.2", "73.2", true],
      ["0.1", "10", "1", "years", 0.01, 0.11, "0.01", "0.11", true],
      ["0.1", "20", "1.5", "years", 0.03, 0.13, "0.03", "0.13", true],
      ["1e3", "5E0", ".5", "years", 25, 1025, "25", "1025", true],
      [
        "1000",
        "5",
        "1",
        "days",
        0.136986301369863,
        1000.1369863013699,
        "0.1369863013698630136986301369863014",
        "1000.136986301369863013698630136986",
        false,
      ],
      [
        "1000",
        "5",
        "1",
        "months",
        4.166666666666667,
        1004.1666666666666,
        "4.166666666666666666666666666666667",
        "1004.166666666666666666666666666667",
        false,
      ],
      [
        "1234.56",
        "7.25",
        "45",
        "days",
        11.03493698630137,
        1245.5949369863013,
        "11.03493698630136986301369863013699",
        "1245.594936986301369863013698630137",
        false,
      ],
      [
        "250000",
        "3.875",
        "17",
        "months",
        13723.958333333334,
        263723.9583333333,
        "13723.95833333333333333333333333333",
        "263723.9583333333333333333333333333",
        false,
      ],
      [
        "99.99",
        "0.01",
        "1",
        "days",
        2.7394520547945205e-5,
        99.99002739452055,
        "0.00002739452054794520547945205479452055",
        "99.99002739452054794520547945205479",
        false,
      ],
    ])(INTEREST_ROW, expectInterest);
  });

  it("counts 365 days and 12 months as one year", () => {
    const year = run({ principal: "1234.5", rate: "6.5", time: "1" });
    const months = run({ principal: "1234.5", rate: "6.5", time: "12", timeUnit: "months" });
    const days = run({ principal: "1234.5", rate: "6.5", time: "365", timeUnit: "days" });
    for (const answer of [months, days]) {
      expect(answer.interestDecimal).toBe(year.interestDecimal);
      expect(answer.isExact).toBe(true);
    }
  });

  it("defaults timeUnit to years and echoes the inputs as numbers", () => {
    expect(run({ principal: "2500.50", rate: "4.2", time: "0.25" })).toMatchObject({
      principal: 2500.5,
      rate: 4.2,
      time: 0.25,
      timeUnit: "years",
    });
  });

  describe("zero", () => {
    it.each([
      [{ principal: "0", rate: "5", time: "3" }, "0", "0"],
      [{ principal: "-0", rate: "-5", time: "3" }, "0", "0"],
      [{ principal: "1000", rate: "0", time: "3" }, "0", "1000"],
      [{ principal: "1000", rate: "5", time: "0", timeUnit: "days" }, "0", "1000"],
    ])("%j → interest %s, total %s", (input, interestDecimal, totalAmountDecimal) => {
      const answer = run(input);
      expect(answer).toMatchObject({ interestDecimal, totalAmountDecimal, isExact: true });
      expect(Object.is(answer.interest, 0)).toBe(true);
    });
  });

  describe("negative rates", () => {
    it.each([
      ["1000", "-0.5", "2", "years", -10, 990, "-10", "990", true],
      ["100", "-200", "1", "years", -200, -100, "-200", "-100", true],
      [
        "1000",
        "-0.75",
        "30",
        "days",
        -0.6164383561643836,
        999.3835616438356,
        "-0.6164383561643835616438356164383562",
        "999.3835616438356164383561643835616",
        false,
      ],
    ])(INTEREST_ROW, expectInterest);
  });

  describe("large and small values", () => {
    it("stays exact beyond 2^53", () => {
      expect(run({ principal: "9007199254740993", rate: "100", time: "1" })).toEqual({
        principal: 9007199254740992,
        rate: 100,
        time: 1,
        timeUnit: "years",
        interest: 9007199254740992,
        totalAmount: 18014398509481984,
        interestDecimal: "9007199254740993",
        totalAmountDecimal: "18014398509481986",
        isExact: true,
      });
    });

    it("gives the double nearest to the exact value, not to the rounded string", () => {
      // The interest is 9007199254740993 + 1/12 × 10^-40: rounded to 34 digits it sits on
      // the tie between the doubles 2^53 and 2^53 + 2, but the exact value is above it.
      const answer = run({
        principal: "108086391056891916.0000000000000000000000000000000000000001",
        rate: "100",
        time: "1",
        timeUnit: "months",
      });
      expect(answer).toMatchObject({
        interest: 9007199254740994,
        totalAmount: 117093590311632910,
        interestDecimal: "9007199254740993.000000000000000000",
        totalAmountDecimal: "117093590311632909.0000000000000000",
        isExact: false,
      });
    });

    it("answers null for numbers beyond the double range, with exact strings", () => {
      const answer = run({ principal: "1e5000", rate: "1e5000", time: "1" });
      expect(answer).toMatchObject({ principal: null, rate: null, interest: null, isExact: true });
      expect(answer.interestDecimal).toBe(`1${"0".repeat(9998)}`);
      expect(answer.totalAmountDecimal).toBe(`1${"0".repeat(4997)}1${"0".repeat(5000)}`);
    });

    it("writes tiny rounded values in plain notation with 34 significant digits", () => {
      const answer = run({ principal: "1e-9000", rate: "1", time: "1", timeUnit: "days" });
      expect(answer).toMatchObject({ interest: 0, isExact: false });
      expect(answer.interestDecimal).toBe(
        `0.${"0".repeat(9004)}2739726027397260273972602739726027`,
      );
    });

    it.each([
      [{ principal: "1e9999", rate: "1e9999", time: "1" }],
      [{ principal: "1e-9999", rate: "1e-9999", time: "1" }],
      [{ principal: "1e-9963", rate: "1", time: "1", timeUnit: "days" }],
      [{ principal: "9.9999e9999", rate: "1", time: "1" }],
    ])("refuses a result over 10,000 digits: %j", (input) => {
      expect(locTypes(problemsOf(simpleInterest, input))).toEqual([[[], "value_error"]]);
    });

    it("names the total amount when only it is too long", () => {
      expect(() => run({ principal: "9.9999e9999", rate: "1", time: "1" })).toThrow(
        /the total amount needs 10001 digits/,
      );
    });

    it("rounds a 10,000-digit total that does not terminate", () => {
      const answer = run({ principal: "1e9999", rate: "1e-9999", time: "1", timeUnit: "days" });
      expect(answer).toMatchObject({ totalAmount: null, isExact: false });
      expect(answer.totalAmountDecimal).toBe(`1${"0".repeat(9999)}`);
    });
  });

  describe("refuses bad input", () => {
    it.each([
      [{ principal: "-1", rate: "5", time: "3" }, [[["principal"], "greater_than_equal"]]],
      [{ principal: "1000", rate: "5", time: "-0.5" }, [[["time"], "greater_than_equal"]]],
      [
        { principal: "-1000", rate: "5", time: "-3" },
        [
          [["principal"], "greater_than_equal"],
          [["time"], "greater_than_equal"],
        ],
      ],
      [{ principal: "1000", rate: "abc", time: "3" }, [[["rate"], "float_parsing"]]],
      [{ principal: "1,000", rate: "5", time: "3" }, [[["principal"], "float_parsing"]]],
      [{ principal: "1000", rate: "5%", time: "3" }, [[["rate"], "float_parsing"]]],
      [{ principal: "1000", rate: "Infinity", time: "3" }, [[["rate"], "float_parsing"]]],
      [{ principal: "1000", rate: "5", time: "3", timeUnit: "weeks" }, [[["timeUnit"], "enum"]]],
      [{ rate: "5", time: "3" }, [[["principal"], "missing"]]],
    ])("%j → %j", (input, problems) => {
      expect(locTypes(problemsOf(simpleInterest, input))).toEqual(problems);
    });
  });
});
