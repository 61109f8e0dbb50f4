import { describe, expect, it } from "vitest";
import { Decimals, Exact, toPlain } from "#kit";
import { exactSum, exactSumOfSquares } from "./_sum.js";

/** A reproducible list of literals: signs, exponents and lengths of all kinds. */
function literals(count: number, seed: number): string[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state;
  };
  return Array.from({ length: count }, () => {
    const digits = Array.from({ length: 1 + (next() % 60) }, () => next() % 10).join("");
    const exponent = (next() % 80) - 40;
    return `${next() % 2 ? "-" : ""}${digits}e${exponent}`;
  });
}

describe("exactSum and exactSumOfSquares", () => {
  it.each([1, 2, 3, 4, 5])("agree with decimal.js one by one (seed %i)", (seed) => {
    const texts = literals(200, seed);
    const values = texts.map((text) => new Exact(text));
    const numbers = Decimals.of(values);
    const sum = values.reduce((total, x) => total.plus(x), new Exact(0));
    const squares = values.reduce((total, x) => total.plus(x.times(x)), new Exact(0));
    expect(toPlain(exactSum(numbers))).toBe(toPlain(sum));
    expect(toPlain(exactSumOfSquares(numbers))).toBe(toPlain(squares));
  });

  it.each([
    [["0"], "0"],
    [["0", "-0"], "0"],
    [["9999999"], "99999980000001"],
    [["-0.5", "0.5"], "0.5"],
    [["1e-40", "1e40"], `1${"0".repeat(80)}.${"0".repeat(79)}1`],
    [[`${"9".repeat(100)}`], toPlain(new Exact("9".repeat(100)).times("9".repeat(100)))],
  ])("squares of %j sum to %s", (texts, expected) => {
    expect(toPlain(exactSumOfSquares(Decimals.of(texts.map((t) => new Exact(t)))))).toBe(expected);
  });

  it("keeps 10,000 numbers of 100 nines exact", () => {
    const nine = new Exact("9".repeat(100));
    const numbers = Decimals.of(Array.from({ length: 10_000 }, () => nine));
    expect(toPlain(exactSumOfSquares(numbers))).toBe(toPlain(nine.times(nine).times(10_000)));
  });
});
