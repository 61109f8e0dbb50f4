import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import fizzbuzz from "./fizzbuzz.js";

interface FizzBuzzResponse {
  start: number;
  end: number;
  count: number;
  items: string[];
  rules: { divisor: number; word: string }[];
}

const run = (input: Record<string, unknown>) => execute(fizzbuzz, input) as FizzBuzzResponse;
const itemsOf = (input: Record<string, unknown>) => run(input).items;

const CLASSIC_1_TO_15 = "1 2 Fizz 4 Buzz Fizz 7 8 Fizz Buzz 11 Fizz 13 14 FizzBuzz".split(" ");

describe("misc/fizzbuzz", () => {
  it("plays classic FizzBuzz from 1 to 15", () => {
    expect(run({ start: 1, end: 15 })).toEqual({
      start: 1,
      end: 15,
      count: 15,
      items: CLASSIC_1_TO_15,
      rules: [
        { divisor: 3, word: "Fizz" },
        { divisor: 5, word: "Buzz" },
      ],
    });
  });

  it("defaults to 1..100 with 3:Fizz and 5:Buzz", () => {
    const response = run({});
    expect(response).toMatchObject({ start: 1, end: 100, count: 100 });
    expect(response.items.slice(0, 15)).toEqual(CLASSIC_1_TO_15);
    expect(response.items.slice(-6)).toEqual(["Buzz", "Fizz", "97", "98", "Fizz", "Buzz"]);
    expect(response.items.filter((item) => item === "FizzBuzz")).toHaveLength(6);
  });

  it.each([
    [{ start: 1, end: 6, rules: ["2:Foo"] }, ["1", "Foo", "3", "Foo", "5", "Foo"]],
    [{ start: 1, end: 6, rules: ["2:Foo", "3:Bar"] }, ["1", "Foo", "Bar", "Foo", "5", "FooBar"]],
    [{ start: 13, end: 15, rules: ["5:Buzz", "3:Fizz"] }, ["13", "14", "BuzzFizz"]],
    [{ start: 13, end: 15, rules: ["3:Fizz", "5:Buzz"] }, ["13", "14", "FizzBuzz"]],
    [{ start: 1, end: 3, rules: ["1:X"] }, ["X", "X", "X"]],
    [{ start: 6, end: 6, rules: ["2:a", "3:b", "6:c", "2:d"] }, ["abcd"]],
    [{ start: 105, end: 105, rules: ["3:Fizz", "5:Buzz", "7:Bazz"] }, ["FizzBuzzBazz"]],
    [{ start: 999_999_999, end: 1_000_000_000, rules: ["1000000000:Giga"] }, ["999999999", "Giga"]],
    [{ start: 1, end: 2, rules: ["2:a:b"] }, ["1", "a:b"]],
    [{ start: 1, end: 2, rules: ["2:Fizz Buzz"] }, ["1", "Fizz Buzz"]],
    [{ start: 1, end: 2, rules: ["2:Ça-va!"] }, ["1", "Ça-va!"]],
    [{ start: 1, end: 2, rules: ["2:🐝"] }, ["1", "🐝"]],
    [{ start: 1, end: 2, rules: ["0002:Foo"] }, ["1", "Foo"]],
  ])("%j → %j", (input, items) => {
    expect(itemsOf(input)).toEqual(items);
  });

  it("handles zero and negative numbers", () => {
    expect(run({ start: -16, end: 1 })).toMatchObject({
      start: -16,
      end: 1,
      count: 18,
      items:
        "-16 FizzBuzz -14 -13 Fizz -11 Buzz Fizz -8 -7 Fizz Buzz -4 Fizz -2 -1 FizzBuzz 1".split(
          " ",
        ),
    });
  });

  it("echoes the rules as objects", () => {
    expect(run({ start: 1, end: 1, rules: ["7:Seven", "11:Eleven"] }).rules).toEqual([
      { divisor: 7, word: "Seven" },
      { divisor: 11, word: "Eleven" },
    ]);
  });

  it.each([
    [{ start: 5, end: 5 }, 1],
    [{ start: 1, end: 10_000 }, 10_000],
    [{ start: -5_000, end: 4_999 }, 10_000],
    [{ start: 1e15 - 9_999, end: 1e15 }, 10_000],
    [{ start: -1e15, end: -1e15 + 9_999 }, 10_000],
  ])("%j holds %i numbers", (input, count) => {
    const response = run(input);
    expect(response.count).toBe(count);
    expect(response.items).toHaveLength(count);
  });

  it("answers, byte for byte, what joining the words number by number answers", () => {
    // The reference: each number's words joined afresh, in rule order.
    const reference = (start: number, end: number, rules: string[]) => {
      const parsed = rules.map((rule) => {
        const colon = rule.indexOf(":");
        return { divisor: Number(rule.slice(0, colon)), word: rule.slice(colon + 1) };
      });
      const items: string[] = [];
      for (let n = start; n <= end; n++) {
        let words = "";
        for (const { divisor, word } of parsed) if (n % divisor === 0) words += word;
        items.push(words === "" ? String(n) : words);
      }
      return items;
    };
    const rule = fc
      .tuple(fc.integer({ min: 1, max: 12 }), fc.constantFrom("Fizz", "Buzz", "a:b", "🐝", "X Y"))
      .map(([divisor, word]) => `${divisor}:${word}`);
    fc.assert(
      fc.property(
        fc.integer({ min: -200, max: 200 }),
        fc.integer({ min: 0, max: 300 }),
        fc.array(rule, { minLength: 1, maxLength: 10 }),
        (start, span, rules) => {
          const answer = run({ start, end: start + span, rules });
          expect(JSON.stringify(answer.items)).toBe(
            JSON.stringify(reference(start, start + span, rules)),
          );
        },
      ),
      { numRuns: 200 },
    );
    // Far from zero and with large divisors too: the first multiple found from any start.
    const far = fc
      .tuple(fc.constantFrom(1, 2, 7, 999_999_937, 1e9), fc.constantFrom("Fizz", "Buzz"))
      .map(([divisor, word]) => `${divisor}:${word}`);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -1e15, max: 1e15 - 300 }),
          fc.constantFrom(-1e9, -999_999_937, 999_999_000, 1e15 - 300),
        ),
        fc.integer({ min: 0, max: 300 }),
        fc.array(far, { minLength: 1, maxLength: 10 }),
        (start, span, rules) => {
          expect(run({ start, end: start + span, rules }).items).toEqual(
            reference(start, start + span, rules),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("stays exact at the edge of the range", () => {
    // 10^15 is divisible by 5 but not by 3; 10^15 − 1 = 999999999999999 is divisible by 3.
    expect(itemsOf({ start: 1e15 - 2, end: 1e15 })).toEqual(["999999999999998", "Fizz", "Buzz"]);
    expect(itemsOf({ start: -1e15, end: -1e15 + 1 })).toEqual(["Buzz", "Fizz"]);
  });

  itAnswersItsExamples(fizzbuzz);

  it.each([
    [
      "end before start",
      { start: 10, end: 9 },
      /end \(9\) must be greater than or equal to start \(10\)/,
    ],
    [
      "end before the default start",
      { end: 0 },
      /end \(0\) must be greater than or equal to start \(1\)/,
    ],
    ["10,001 numbers", { start: 1, end: 10_001 }, /holds 10001 numbers; at most 10000/],
    [
      "an enormous range",
      { start: -1e15, end: 1e15 },
      /holds 2000000000000001 numbers; at most 10000/,
    ],
  ])("refuses %s at end", (_title, input, message) => {
    const problems = problemsOf(fizzbuzz, input);
    expect(locTypes(problems)).toEqual([[["end"], "value_error"]]);
    expect(problems[0]?.msg).toMatch(message);
  });

  it.each([
    ["a missing colon", "3Fizz", /has no ':'/],
    ["an empty divisor", ":Fizz", /whole number/],
    ["a negative divisor", "-3:Fizz", /whole number/],
    ["a fractional divisor", "1.5:Fizz", /whole number/],
    ["a divisor with a sign", "+3:Fizz", /whole number/],
    ["a divisor 0", "0:Zero", /between 1 and 1000000000/],
    ["a divisor over 10^9", "1000000001:Big", /between 1 and 1000000000/],
    ["a huge divisor", `${"9".repeat(400)}:Big`, /between 1 and 1000000000/],
    ["an empty word", "3:", /empty/],
    ["a word of 33 characters", `3:${"a".repeat(33)}`, /33 characters; at most 32/],
    ["a control character", "3:Fi\u0007zz", /U\+0007/],
    ["a tab", "3:Fi\tzz", /U\+0009/],
    ["a newline", "3:Fizz\n", /U\+000A/],
    ["a zero-width joiner", "3:Fi\u200dzz", /U\+200D/],
    ["a comma", "3:Fi,zz", /','/],
    ["a leading space", "3: Fizz", /single spaces between/],
    ["a double space", "3:Fizz  Buzz", /single spaces between/],
    ["spaces around the rule", " 3:Fizz", /whole number/],
  ])("refuses a rule with %s at its index", (_title, badRule, message) => {
    const problems = problemsOf(fizzbuzz, { rules: ["5:Buzz", badRule] });
    expect(locTypes(problems)).toEqual([[["rules", "1"], "value_error"]]);
    expect(problems[0]?.msg).toMatch(/^Value error, /);
    expect(problems[0]?.msg).toMatch(message);
  });

  it("accepts a word of exactly 32 characters, counting an emoji as one", () => {
    const word = `${"a".repeat(31)}🐝`;
    expect(itemsOf({ start: 3, end: 3, rules: [`3:${word}`] })).toEqual([word]);
  });

  it("reports every bad rule, each at its own index", () => {
    const problems = problemsOf(fizzbuzz, { rules: ["Fizz", "3:Fizz", "0:Zero", "5:"] });
    expect(locTypes(problems)).toEqual([
      [["rules", "0"], "value_error"],
      [["rules", "2"], "value_error"],
      [["rules", "3"], "value_error"],
    ]);
  });

  it.each([
    ["an empty rule list", { rules: [] }, "too_short"],
    ["11 rules", { rules: Array.from({ length: 11 }, (_, i) => `${i + 1}:W${i}`) }, "too_long"],
    ["a start below −10^15", { start: -1e15 - 1, end: 0 }, "greater_than_equal"],
    ["an end above 10^15", { start: 1, end: 1e15 + 1 }, "less_than_equal"],
  ])("refuses %s", (_title, input, type) => {
    // The loc is not asserted: src/core/problems.ts currently drops it for zod's
    // too_small/too_big issues (reported to the kit's owner).
    expect(problemsOf(fizzbuzz, input).map((p) => p.type)).toEqual([type]);
  });

  it.each([
    ["a non-integer start", { start: "1.5" }, [[["start"], "int_parsing"]]],
    ["a non-integer end", { end: "ten" }, [[["end"], "int_parsing"]]],
  ])("refuses %s", (_title, input, expected) => {
    expect(locTypes(problemsOf(fizzbuzz, input))).toEqual(expected);
  });
});
