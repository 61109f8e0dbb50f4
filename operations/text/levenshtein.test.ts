import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import levenshtein from "./levenshtein.js";

type Answer = { distance: number; similarity: number; lengthA: number; lengthB: number };
const run = (a: string, b: string, caseSensitive = true) =>
  execute(levenshtein, { a, b, caseSensitive }) as Answer;

/** The textbook full-table distance over code points, to check the trimmed one against. */
function reference(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const table = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const row = table[i] as number[];
      const above = table[i - 1] as number[];
      row[j] = Math.min(
        (above[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1),
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
      );
    }
  }
  return (table[x.length] as number[])[y.length] as number;
}

describe("text/levenshtein", () => {
  itAnswersItsExamples(levenshtein);

  it.each([
    ["", "", 0],
    ["abc", "", 3],
    ["", "abc", 3],
    ["abc", "abc", 0],
    ["flaw", "lawn", 2],
    ["saturday", "sunday", 3],
    ["gumbo", "gambol", 2],
    ["book", "back", 2],
    ["prefix-middle-suffix", "prefix-MIDDLE-suffix", 6],
    ["😀😀😀", "😀😁😀", 1],
    ["café", "cafe\u0301", 2],
  ])("%s ↔ %s: %i", (a, b, expected) => {
    expect(run(a, b).distance).toBe(expected);
    expect(run(b, a).distance).toBe(expected);
  });

  it("agrees with the full table on pseudo-random strings, with the buffers reused", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const word = () =>
      Array.from(
        { length: next() % 30 },
        () => ["a", "b", "c", "é", "😀"][next() % 5] as string,
      ).join("");
    for (let round = 0; round < 200; round++) {
      const a = word();
      const b = word();
      expect(run(a, b).distance, `${a} ↔ ${b}`).toBe(reference(a, b));
    }
  });

  it("ignores case when asked", () => {
    expect(run("HELLO", "hello").distance).toBe(5);
    expect(run("HELLO", "hello", false).distance).toBe(0);
  });

  it("computes the largest table within its declared work", () => {
    const a = "ab".repeat(1000);
    const b = "ba".repeat(1000);
    expect(run(a, b).distance).toBe(2);
    const c = "a".repeat(2000);
    const d = "b".repeat(2000);
    expect(run(c, d).distance).toBe(2000);
    const cost = levenshtein.cost?.(levenshtein.input.parse({ a: c, b: d }));
    expect(cost?.work).toBeLessThanOrEqual(20_000_000);
  });

  it("refuses longer strings, and a string lowercasing lengthens past the limit", () => {
    expect(locTypes(problemsOf(levenshtein, { a: "a".repeat(2001), b: "" }))).toEqual([
      [["a"], "string_too_long"],
    ]);
    expect(
      locTypes(problemsOf(levenshtein, { a: "İ".repeat(1500), b: "", caseSensitive: false })),
    ).toEqual([[["a"], "value_error"]]);
  });
});
