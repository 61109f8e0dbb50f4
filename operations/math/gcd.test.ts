import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import gcd from "./gcd.js";

const run = (numbers: string[]) => execute(gcd, { numbers }) as { decimal: string };

describe("math/gcd", () => {
  itAnswersItsExamples(gcd);

  it.each([
    [["12", "18"], "6"],
    [["7"], "7"],
    [["-7"], "7"],
    [["0"], "0"],
    [["0", "0"], "0"],
    [["0", "-5"], "5"],
    [["17", "19"], "1"],
    [["+0012", "18"], "6"],
    [["1071", "462"], "21"],
    [["2", "4", "8", "3"], "1"],
    // 2^200 and 2^150 · 3: the gcd is 2^150, exactly.
    [[String(2n ** 200n), String(3n * 2n ** 150n)], String(2n ** 150n)],
    // Consecutive Fibonacci numbers, Euclid's slowest case.
    [["354224848179261915075", "573147844013817084101"], "1"],
  ])("gcd%j = %s", (numbers, expected) => {
    expect(run(numbers).decimal).toBe(expected);
  });

  it("keeps going after zeros and stops early at 1", () => {
    expect(run(["0", "0", "9", "6"]).decimal).toBe("3");
    expect(run(["2", "3", "6"]).decimal).toBe("1");
  });

  it("accepts 1,000 numbers of 100 digits", () => {
    const numbers = Array.from({ length: 1000 }, (_, i) =>
      String(6n * 10n ** 98n + 6n * BigInt(i)),
    );
    expect(run(numbers).decimal).toBe("6");
  });

  it.each([
    [["1.5"], [[["numbers", "0"], "value_error"]]],
    [["1e3"], [[["numbers", "0"], "value_error"]]],
    [["0x10"], [[["numbers", "0"], "value_error"]]],
    [["1 000"], [[["numbers", "0"], "value_error"]]],
    [["1_000"], [[["numbers", "0"], "value_error"]]],
    [["-"], [[["numbers", "0"], "value_error"]]],
    [["4", ""], [[["numbers", "1"], "string_too_short"]]],
    [["1".repeat(102)], [[["numbers", "0"], "string_too_long"]]],
    [[], [[["numbers"], "too_short"]]],
    [Array.from({ length: 1001 }, () => "1"), [[["numbers"], "too_long"]]],
  ])("refuses %j", (numbers, expected) => {
    expect(locTypes(problemsOf(gcd, { numbers }))).toEqual(expected);
  });

  it("accepts 100 digits with a sign", () => {
    expect(run([`-${"9".repeat(100)}`]).decimal).toBe("9".repeat(100));
  });
});
