import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import lcm from "./lcm.js";

const run = (numbers: string[]) => execute(lcm, { numbers }) as { decimal: string };

describe("math/lcm", () => {
  itAnswersItsExamples(lcm);

  it.each([
    [["4", "6"], "12"],
    [["5"], "5"],
    [["-5"], "5"],
    [["0"], "0"],
    [["3", "0", "4"], "0"],
    [["1", "1"], "1"],
    [["2", "3", "5", "7", "11", "13"], "30030"],
    [["12", "18", "30"], "180"],
    [[String(2n ** 100n), String(3n ** 50n)], String(2n ** 100n * 3n ** 50n)],
  ])("lcm%j = %s", (numbers, expected) => {
    expect(run(numbers).decimal).toBe(expected);
  });

  it("lcm(1..30) is 2329089562800", () => {
    const numbers = Array.from({ length: 30 }, (_, i) => String(i + 1));
    expect(run(numbers).decimal).toBe("2329089562800");
  });

  it("refuses an lcm of more than 10,000 digits as soon as it passes", () => {
    // 10^99 + 2k + 1 for k < 110: mostly coprime, so the lcm passes 10,000 digits.
    const numbers = Array.from({ length: 110 }, (_, i) => String(10n ** 99n + BigInt(2 * i + 1)));
    const [problem] = problemsOf(lcm, { numbers });
    expect(problem).toMatchObject({ loc: ["numbers"], type: "value_error" });
    expect(problem?.msg).toMatch(/needs more than 10000 digits/);
  });

  it("answers an lcm just within 10,000 digits", () => {
    // 99 numbers of 100 digits whose lcm has 9,702 digits (checked against BigInt).
    const values = Array.from({ length: 99 }, (_, i) => 10n ** 99n + BigInt(2 * i + 1));
    const expected = values.reduce((m, v) => {
      let [a, b] = [m, v];
      while (b) [a, b] = [b, a % b];
      return (m / a) * v;
    }, 1n);
    expect(run(values.map(String)).decimal).toBe(String(expected));
  });

  it.each([
    [3, 1000],
    [6, 872],
    [100, 121],
  ])("fits %i-digit numbers up to %i in the request budget", (digits, fits) => {
    const numbers = (count: number) => Array.from({ length: count }, () => "9".repeat(digits));
    expect(run(numbers(fits)).decimal).toBe("9".repeat(digits));
    if (fits < 1000) {
      expect(locTypes(problemsOf(lcm, { numbers: numbers(fits + 1) }))).toEqual([
        [["numbers"], "value_error"],
      ]);
    }
  });

  it.each([
    [["2.5"], [[["numbers", "0"], "value_error"]]],
    [["1e2"], [[["numbers", "0"], "value_error"]]],
    [[""], [[["numbers", "0"], "string_too_short"]]],
    [[], [[["numbers"], "too_short"]]],
  ])("refuses %j", (numbers, expected) => {
    expect(locTypes(problemsOf(lcm, { numbers }))).toEqual(expected);
  });
});
