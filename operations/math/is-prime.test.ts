import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import isPrime from "./is-prime.js";

interface Answer {
  number: string;
  isPrime: boolean;
  witnesses: number[];
}
const run = (number: string) => execute(isPrime, { number }) as Answer;

/** Trial division: the reference for small numbers. */
function primeByTrialDivision(n: number): boolean {
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}

describe("math/is-prime", () => {
  itAnswersItsExamples(isPrime);

  it("agrees with trial division on every number below 20,000", () => {
    const wrong: number[] = [];
    for (let n = -5; n < 20_000; n++) {
      if (run(String(n)).isPrime !== primeByTrialDivision(n)) wrong.push(n);
    }
    expect(wrong).toEqual([]);
  });

  // The smallest strong pseudoprime to the first k prime bases (OEIS A014233): each one
  // passes the test to the smaller witness set and must be caught by the next base.
  it.each([
    ["2047", []], // 23 × 89: trial division catches it first
    ["1373653", [2, 3, 5]],
    ["25326001", [2, 3, 5, 7]],
    ["3215031751", [2, 3, 5, 7, 11]],
    ["2152302898747", [2, 3, 5, 7, 11, 13]],
    ["3474749660383", [2, 3, 5, 7, 11, 13, 17]],
    ["341550071728321", [2, 3, 5, 7, 11, 13, 17, 19, 23]],
    ["3825123056546413051", [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]],
    ["318665857834031151167461", [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41]],
  ])("the strong pseudoprime %s is composite (bases %j)", (number, witnesses) => {
    expect(run(number)).toEqual({ number, isPrime: false, witnesses });
  });

  it.each([
    ["2147483647", true], // 2^31 − 1
    ["2305843009213693951", true], // 2^61 − 1
    ["1000000000000000003", true],
    ["1000000000000000001", false],
    ["3317044064679887385961813", true], // the largest prime below the limit
    ["3317044064679887385961979", false],
    ["18446744073709551557", true], // the largest prime below 2^64
    ["18446744073709551617", false], // 2^64 + 1 = 274177 × 67280421310721
  ])("%s → %s", (number, expected) => {
    expect(run(number).isPrime).toBe(expected);
  });

  it.each([
    ["-7", "-7"],
    ["+0013", "13"],
    ["000", "0"],
    ["-0", "0"],
  ])("echoes %s as %s", (number, canonical) => {
    expect(run(number).number).toBe(canonical);
  });

  it.each(["3317044064679887385961981", "3317044064679887385961982", "9".repeat(100)])(
    "refuses %s, at or past the proven bound, with a 422",
    (number) => {
      const [problem] = problemsOf(isPrime, { number });
      expect(problem).toMatchObject({ loc: ["number"], type: "value_error" });
      expect(problem?.msg).toMatch(/3,317,044,064,679,887,385,961,981/);
    },
  );

  it.each([
    ["1.5", "value_error"],
    ["1e9", "value_error"],
    ["", "string_too_short"],
    ["1".repeat(102), "string_too_long"],
  ])("refuses %j (%s)", (number, type) => {
    expect(locTypes(problemsOf(isPrime, { number }))).toEqual([[["number"], type]]);
  });

  it("declares more work for more witnesses and bits", () => {
    const cost = (number: string) => isPrime.cost?.(isPrime.input.parse({ number })).work ?? 0;
    expect(cost("7")).toBeLessThan(cost("2305843009213693951"));
    expect(cost("2305843009213693951")).toBeLessThan(cost("318665857834031151167461"));
    expect(cost("318665857834031151167461")).toBeLessThan(5_000_000);
  });
});
