/**
 * The compact list of decimals: read from literals or built from decimal.js values, it
 * holds exactly decimal.js's parts, and its comparisons, places and span answer what
 * decimal.js answers for the same values.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { digitSpan } from "./cost.js";
import { Exact } from "./decimal.js";
import { Decimals } from "./decimals.js";

const readAll = (texts: string[]) =>
  Decimals.read(texts, (text) => {
    const value = new Exact(text);
    return value.isFinite() ? value : undefined;
  });

/** Literals of every kind the fast path takes, and ones it leaves to decimal.js. */
const literal = fc.oneof(
  fc.stringMatching(/^[+-]?\d{1,15}(\.\d{0,15})?([eE][+-]?\d{1,3})?$/),
  fc.stringMatching(/^-?\d{16,40}\.\d{16,40}$/),
  fc.constantFrom("0", "-0", "0.000", "1e9999", "-1e-9999", "9999999", "10000000"),
);

describe("Decimals", () => {
  it.each([
    [
      ["1", "-2.5", "0.125"],
      ["1", "-2.5", "0.125"],
    ],
    [
      ["0", "-0", "1e3", "2.5E-4"],
      ["0", "0", "1000", "0.00025"],
    ],
    [["123456789012345678901234567890.5"], ["123456789012345678901234567890.5"]],
  ])("%j reads as %j", (texts, plain) => {
    const numbers = readAll(texts);
    expect(numbers?.length).toBe(texts.length);
    expect([...(numbers ?? [])].map((value) => value.toFixed())).toEqual(plain);
  });

  it("refuses a list with an item that is not a string or that the long reader refuses", () => {
    expect(readAll(["1", 2 as unknown as string])).toBeUndefined();
    expect(readAll(["1", "Infinity"])).toBeUndefined();
  });

  it("holds decimal.js's very parts, whichever way it was built", () => {
    fc.assert(
      fc.property(fc.array(literal, { minLength: 1, maxLength: 20 }), (texts) => {
        const values = texts.map((text) => new Exact(text));
        const read = readAll(texts);
        expect(read).toEqual(Decimals.of(values));
        for (let i = 0; i < values.length; i++) {
          const value = values[i] as Exact;
          const at = read?.at(i) as Exact;
          expect({ s: at.s, e: at.e, d: at.d }).toEqual({ s: value.s, e: value.e, d: value.d });
          expect(read?.isZero(i)).toBe(value.isZero());
          expect(read?.decimalPlaces(i)).toBe(value.decimalPlaces());
        }
        expect(read?.digitSpan()).toBe(digitSpan(values));
      }),
      { seed: 20261123, numRuns: 2_000 },
    );
  });

  it("compares as decimal.js compares", () => {
    fc.assert(
      fc.property(literal, literal, (a, b) => {
        const numbers = readAll([a, b]) as Decimals;
        const expected = new Exact(a).cmp(new Exact(b));
        expect(numbers.compare(0, 1)).toBe(expected);
        expect(numbers.compare(1, 0)).toBe(-expected || 0);
        expect(numbers.compare(0, 0)).toBe(0);
      }),
      { seed: 20261124, numRuns: 5_000 },
    );
  });

  it("grows its words past its first guess", () => {
    const long = Array.from({ length: 50 }, (_, i) => `${"9".repeat(40)}.${i}5`);
    const numbers = readAll(long) as Decimals;
    expect([...numbers].map((value) => value.toFixed())).toEqual(long);
  });
});
