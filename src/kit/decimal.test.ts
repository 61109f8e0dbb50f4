/**
 * Exact decimals: digits counted and written in plain notation, the nearest double, the
 * refusal of results too long to write; and the short-literal fast path, which must give
 * exactly the value the full parse gives and take only literals every limit allows.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  arithmeticResult,
  assertWritable,
  compareExact,
  DECIMAL_LITERAL,
  Exact,
  exactFromWords,
  MAX_LITERAL_LENGTH,
  MAX_RESULT_DIGITS,
  nearestDouble,
  parseDecimalLiteral,
  plainDigitCount,
  toPlain,
} from "./decimal.js";
import { CalculationError } from "./errors.js";

describe("plainDigitCount and toPlain", () => {
  it.each([
    ["0", 1, "0"],
    ["-0", 1, "0"],
    ["7", 1, "7"],
    ["-12.5", 3, "-12.5"],
    ["1e3", 4, "1000"],
    ["1e-3", 4, "0.001"],
    ["2.5E-4", 6, "0.00025"],
    ["123.000", 3, "123"],
  ])("%s: %i digits, %s", (literal, digits, plain) => {
    const value = new Exact(literal);
    expect(plainDigitCount(value)).toBe(digits);
    expect(toPlain(value)).toBe(plain);
  });

  it("never writes an exponent, however large or small the value", () => {
    expect(toPlain(new Exact("1e30"))).toBe(`1${"0".repeat(30)}`);
    expect(toPlain(new Exact("-1e-30"))).toBe(`-0.${"0".repeat(29)}1`);
  });
});

describe("nearestDouble", () => {
  it.each([
    ["0.1", 0.1],
    ["0.30000000000000000001", 0.3],
    ["-2.5e-4", -0.00025],
    ["1e308", 1e308],
    ["1e309", null],
    ["-1e309", null],
    ["1e-400", 0],
  ])("%s → %s", (literal, expected) => {
    expect(nearestDouble(literal)).toBe(expected);
    expect(nearestDouble(new Exact(literal))).toBe(expected);
  });
});

describe("assertWritable and arithmeticResult", () => {
  it.each([
    ["0.1 + 0.2", new Exact("0.1").plus("0.2"), { result: 0.3, decimal: "0.3" }],
    [
      "a value beyond doubles",
      new Exact("1e400"),
      { result: null, decimal: `1${"0".repeat(400)}` },
    ],
    ["the longest writable", new Exact(`1e${MAX_RESULT_DIGITS - 1}`), { result: null }],
  ])("%s is written", (_case, value, expected) => {
    expect(arithmeticResult(value)).toMatchObject(expected);
  });

  it.each([
    ["one digit too many", new Exact(`1e${MAX_RESULT_DIGITS}`), /needs 10001 digits/],
    ["too many decimals", new Exact(`1e-${MAX_RESULT_DIGITS}`), /needs 10001 digits/],
    ["infinity", new Exact("Infinity"), /not a finite number/],
    ["NaN", new Exact("NaN"), /not a finite number/],
  ])("%s is refused with a CalculationError", (_case, value, message) => {
    expect(() => assertWritable(value)).toThrow(CalculationError);
    expect(() => arithmeticResult(value)).toThrow(message);
  });

  it("names what it refuses", () => {
    expect(() => assertWritable(new Exact("NaN"), "the root")).toThrow(/^the root is not/);
  });
});

describe("parseDecimalLiteral", () => {
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
    [`${"9".repeat(50)}.${"1".repeat(49)}`, `${"9".repeat(50)}.${"1".repeat(49)}`],
    [`0.${"0".repeat(97)}1`, `0.${"0".repeat(97)}1`],
    ["1234567890123456", "1234567890123456"],
    ["1e3", "1000"],
    ["2.5E-4", "0.00025"],
    ["-1.5e+2", "-150"],
    ["0e9999", "0"],
    ["1e9999", `1${"0".repeat(9999)}`],
    ["1e-9999", `0.${"0".repeat(9998)}1`],
  ])("%j → %s", (text, plain) => {
    const value = parseDecimalLiteral(text);
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
    `1${"0".repeat(100)}`,
    "1e00005",
    "",
    ".",
    "-",
    " 1",
    "NaN",
    "0x10",
    "1_000",
  ])("%j is left to the full checks", (text) => {
    expect(parseDecimalLiteral(text)).toBeUndefined();
  });

  // Digits on both sides of the point, up to past the literal length limit.
  const literals = fc.stringMatching(/^[+-]?\d{0,60}(\.\d{0,60})?([eE][+-]?\d{0,5})?$/);

  it("takes every literal within the length and digit limits", () => {
    const taken = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,4})?$/;
    fc.assert(
      fc.property(literals, (text) => {
        const full =
          text.length <= MAX_LITERAL_LENGTH && taken.test(text) ? new Exact(text) : undefined;
        const within =
          full !== undefined &&
          (full.isZero() ||
            (Math.abs(full.e) <= MAX_RESULT_DIGITS && plainDigitCount(full) <= MAX_RESULT_DIGITS));
        expect(parseDecimalLiteral(text) !== undefined).toBe(within);
      }),
      { seed: 20261123, numRuns: 20_000 },
    );
  });

  it("agrees with decimal.js on every literal it takes", () => {
    fc.assert(
      fc.property(literals, (text) => {
        const value = parseDecimalLiteral(text);
        if (value === undefined) return;
        const full = new Exact(text);
        // The very representation decimal.js builds: operations read words and exponents.
        expect({ s: value.s, e: value.e, d: value.d }).toEqual({ s: full.s, e: full.e, d: full.d });
        expect(value.toFixed()).toBe(full.toFixed());
      }),
      { seed: 20251123, numRuns: 20_000 },
    );
  });
});

describe("exactFromWords", () => {
  // What decimal.js itself holds for the same value: sign, exponent and words.
  const held = (value: Exact) => ({ s: value.s, e: value.e, d: value.d });
  it.each([
    [1, 8, [12, 3_400_000], "123400000"],
    [1, 0, [1], "1"],
    [-1, -1, [5_000_000], "-0.5"],
    [1, 6, [1_234_567, 1], "1234567.0000001"],
    [-1, 13, [9_999_999, 9_999_999], "-99999999999999"],
    [1, -8, [1_000_000], "0.00000001"],
  ] as const)("(%i, %i, %j) is %s", (sign, exponent, words, plain) => {
    const value = exactFromWords(sign, exponent, [...words]);
    expect(held(value)).toEqual(held(new Exact(plain)));
    expect(toPlain(value)).toBe(plain);
  });
});

describe("compareExact", () => {
  // Literals around the same magnitudes, so that equal exponents and shared words are common.
  const literal = fc.stringMatching(/^[+-]?\d{1,16}(\.\d{1,16})?([eE][+-]?\d{1,2})?$/);
  it("answers what decimal.js's cmp answers, 20,000 pairs", () => {
    fc.assert(
      fc.property(literal, literal, (a, b) => {
        const x = new Exact(a);
        const y = new Exact(b);
        expect(compareExact(x, y)).toBe(x.cmp(y));
        expect(compareExact(x, x)).toBe(0);
      }),
      { numRuns: 20_000 },
    );
  });
  it.each([
    ["0", "-0", 0],
    ["0", "1e-999", -1],
    ["-1e-999", "0", -1],
    ["1.0000001", "1.00000010", 0],
    ["-2", "-10", 1],
    ["12345678", "12345678.5", -1],
  ])("%s against %s is %i", (a, b, expected) => {
    expect(compareExact(new Exact(a), new Exact(b))).toBe(expected);
  });
});

describe("DECIMAL_LITERAL", () => {
  // The pattern as first written: the same literals, but ambiguous (quadratic on a long
  // run of digits that fails at its end).
  const ambiguous = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
  it("accepts exactly the literals of the ambiguous pattern it replaced", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9.eE+\-z]{0,12}$/), (text) => {
        expect(DECIMAL_LITERAL.test(text)).toBe(ambiguous.test(text));
      }),
      { numRuns: 5_000 },
    );
  });
});
