/**
 * The short-decimal fast path gives exactly the value the full parse gives, and takes
 * only literals for which every limit on literals holds.
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { Exact, parseShortDecimal } from "../src/kit/decimal.js";

it.each([
  ["1", "1"],
  ["-0", "0"],
  ["+5", "5"],
  ["007", "7"],
  ["9999999", "9999999"],
  ["10000000", "10000000"],
  [".5", "0.5"],
  ["5.", "5"],
  ["-1.25", "-1.25"],
  ["123456789012345.123456789012345", "123456789012345.123456789012345"],
  ["1e3", "1000"],
  ["2.5E-4", "0.00025"],
  ["-1.5e+2", "-150"],
  ["0e9999", "0"],
  ["1e9999", `1${"0".repeat(9999)}`],
  ["1e-9999", `0.${"0".repeat(9998)}1`],
])("%j → %s", (text, plain) => {
  const value = parseShortDecimal(text);
  expect(value?.toFixed()).toBe(plain);
  expect(value?.eq(new Exact(text))).toBe(true);
  expect(value?.isNegative()).toBe(new Exact(text).isNegative());
});

it.each([
  "1e10000",
  "10e9999",
  "0.1e-9999",
  "1e",
  "1e+",
  "1234567890123456",
  "0.1234567890123456",
  "",
  ".",
  "-",
  " 1",
  "NaN",
  "0x10",
  "1_000",
])("%j is left to the full checks", (text) => {
  expect(parseShortDecimal(text)).toBeUndefined();
});

it("agrees with decimal.js on every literal it takes", () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[+-]?\d{0,17}(\.\d{0,17})?([eE][+-]?\d{0,5})?$/), (text) => {
      const value = parseShortDecimal(text);
      if (value === undefined) return;
      const full = new Exact(text);
      expect(value.eq(full) && value.isNegative() === full.isNegative()).toBe(true);
      expect(value.toFixed()).toBe(full.toFixed());
    }),
    { seed: 20251123, numRuns: 2000 },
  );
});
