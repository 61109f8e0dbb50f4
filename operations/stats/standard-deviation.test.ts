import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import { isqrt } from "./_moments.js";
import standardDeviation from "./standard-deviation.js";

interface Answer {
  result: number | null;
  decimal: string;
  isExact: boolean;
}
const run = (numbers: string[], kind: string, precision = 20) =>
  execute(standardDeviation, { numbers, kind, precision }) as Answer;

describe("stats/standard-deviation", () => {
  itAnswersItsExamples(standardDeviation);

  // Checked against Python's decimal module at 60 digits.
  it.each([
    [["1", "2", "3", "4"], "sample", 20, "1.2909944487358056284", false, 1.2909944487358056],
    [["1", "2", "3", "4"], "population", 20, "1.1180339887498948482", false, 1.118033988749895],
    [
      ["0.1", "0.2", "0.4"],
      "sample",
      30,
      "0.152752523165194666886268239791",
      false,
      0.15275252316519466,
    ],
    [["-5", "5"], "population", 20, "5", true, 5],
    [["-5", "5"], "sample", 1, "7", false, 7.0710678118654755],
    [["3", "3", "3"], "sample", 20, "0", true, 0],
    [
      ["1.5", "2.25", "-0.125", "7"],
      "population",
      25,
      "2.650729557593531645342369",
      false,
      2.6507295575935315,
    ],
    [["1e20", "1e20", "1e-20"], "sample", 20, "57735026918962576451", false, 57735026918962580000],
    [["0.5", "1.5"], "population", 20, "0.5", true, 0.5],
    [["0", "1e-10"], "population", 20, "0.00000000005", true, 5e-11],
  ])("%j %s to %i digits → %s", (numbers, kind, precision, decimal, isExact, result) => {
    expect(run(numbers, kind, precision)).toMatchObject({ decimal, isExact, result });
  });

  it("rounds ties to even, and only exact ties", () => {
    // Population sd of 0 and 2.5 is exactly 1.25: a tie at 2 digits, rounded to even.
    expect(run(["0", "2.5"], "population", 2).decimal).toBe("1.2");
    expect(run(["0", "3.5"], "population", 2).decimal).toBe("1.8");
    expect(run(["0", "2.5"], "population", 3)).toMatchObject({ decimal: "1.25", isExact: true });
  });

  it("answers 100 digits", () => {
    const { decimal } = run(["0", "2"], "sample", 100);
    // √2 to 100 significant digits.
    expect(decimal).toBe(
      "1.414213562373095048801688724209698078569671875376948073176679737990732478462107038850387534327641573",
    );
  });

  it("finds the root of a 10,000-digit radicand", () => {
    const answer = run(["1e4990", "0"], "population", 5);
    expect(answer).toMatchObject({ decimal: `5${"0".repeat(4989)}`, isExact: true, result: null });
  });

  it.each([
    [{ numbers: ["1"] }, [[["numbers"], "value_error"]]],
    [{ numbers: ["1", "2"], precision: 0 }, [[["precision"], "greater_than_equal"]]],
    [{ numbers: ["1", "2"], precision: 101 }, [[["precision"], "less_than_equal"]]],
    [{ numbers: ["1", "2"], kind: "both" }, [[["kind"], "enum"]]],
  ])("refuses %j", (input, expected) => {
    expect(locTypes(problemsOf(standardDeviation, input))).toEqual(expected);
  });
});

describe("isqrt", () => {
  it("is ⌊√n⌋ below 10,000 and around powers of two up to 2^4000", () => {
    const check = (n: bigint) => {
      const r = isqrt(n);
      expect(r * r <= n && (r + 1n) * (r + 1n) > n).toBe(true);
    };
    for (let n = 0n; n < 10_000n; n++) check(n);
    for (let bits = 50n; bits < 4000n; bits += 97n) {
      const n = (1n << bits) + bits;
      for (const m of [n, n * n, n * n - 1n, n * n + 1n]) check(m);
    }
  });
});
