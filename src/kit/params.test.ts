import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Exact, MAX_LITERAL_LENGTH } from "./decimal.js";
import { Decimals } from "./decimals.js";
import {
  decimal,
  decimals,
  describeParam,
  FAST_CHECKS,
  integer,
  isWellFormed,
  list,
  text,
  UNSURE,
} from "./params.js";

/** The first problem zod reports for `value`, as `type: message`, or the parsed value. */
function parse(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data instanceof Exact ? result.data.toFixed() : result.data;
  const issue = result.error.issues[0];
  return `${(issue as { params?: { type?: string } }).params?.type ?? issue?.code}: ${issue?.message}`;
}

describe("decimal", () => {
  it.each([
    ["0.1", "0.1"],
    ["-1.5", "-1.5"],
    [".5", "0.5"],
    ["5.", "5"],
    ["2.5E-4", "0.00025"],
    ["+7", "7"],
    ["1e9999", `1${"0".repeat(9999)}`],
  ])("takes %j as %s, exactly", (literal, expected) => {
    expect(parse(decimal(), literal)).toBe(expected);
  });

  it.each([
    ["", /^float_parsing/],
    [" 1", /^float_parsing/],
    ["NaN", /^float_parsing/],
    ["Infinity", /^float_parsing/],
    ["0x10", /^float_parsing/],
    ["1_000", /^float_parsing/],
    ["1".repeat(MAX_LITERAL_LENGTH + 1), /^string_too_long/],
    ["1e10000", /^value_error: Value error, the number needs 10001 digits/],
    ["1e-10000", /^value_error/],
    ["1e999999999", /^value_error: Value error, the number needs more than 10000 digits/],
    [`0.${"1".repeat(50)}e-9960`, /^value_error: Value error, the number needs 10011 digits/],
  ])("refuses %j", (literal, problem) => {
    expect(parse(decimal(), literal)).toMatch(problem);
  });

  it.each([
    ["0", "0"],
    ["0.5", "0.5"],
    ["-0.1", "greater_than_equal: Input should be greater than or equal to 0"],
  ])("with min 0, %j → %s", (literal, expected) => {
    expect(parse(decimal({ min: "0" }), literal)).toBe(expected);
  });

  it.each([
    ["-0", "0", "0"],
    ["1e-7", "0", "0.0000001"],
    ["1.5", "1.5", "1.5"],
    ["1.50", "1.5", "1.5"],
    ["1.4999999999", "1.5", "greater_than_equal"],
    ["15e-1", "1.5", "1.5"],
    ["-1", "-2", "-1"],
    ["-2.0000001", "-2", "greater_than_equal"],
    ["12345678.9", "12345679", "greater_than_equal"],
    ["1e+00005", "100000", "100000"],
  ])("%j against min %s (decimal.js's comparison) → %s", (literal, min, expected) => {
    expect(String(parse(decimal({ min }), literal))).toMatch(new RegExp(`^${expected}`));
  });

  it("has a fast check that vouches only for what zod takes", () => {
    const check = FAST_CHECKS.get(decimal({ min: "1" }));
    if (!check) throw new Error("decimal() registers a fast check");
    expect((check("2.5") as Exact).toFixed()).toBe("2.5");
    for (const value of ["0.5", "abc", 2.5, null]) expect(check(value), String(value)).toBe(UNSURE);
  });
});

describe("text", () => {
  it.each([
    ["ascii within max", { max: 3 }, "abc", "abc"],
    ["code points, not UTF-16 units", { max: 2 }, "😀😀", "😀😀"],
    [
      "over max in code points",
      { max: 2 },
      "😀😀😀",
      "too_big: Too big: expected string to have <=2 characters",
    ],
    ["under min", { min: 2, max: 5 }, "a", /^too_small/],
    [
      "a lone high surrogate",
      { max: 9 },
      "a\uD800b",
      /^value_error: .*lone surrogate \(U\+D800 at index 1\)/,
    ],
    ["a lone low surrogate", { max: 9 }, "\uDC00", /^value_error: .*U\+DC00 at index 0/],
    ["a surrogate pair", { max: 9 }, "\uD83D\uDE00", "\uD83D\uDE00"],
    ["max code points, twice as many UTF-16 units", { max: 3 }, "😀a😀", "😀a😀"],
    [
      "one code point over max, in pairs",
      { max: 3 },
      "😀😀😀😀",
      "too_big: Too big: expected string to have <=3 characters",
    ],
  ])("%s", (_case, options, value, expected) => {
    const result = parse(text(options), value);
    if (expected instanceof RegExp) expect(result).toMatch(expected);
    else expect(result).toBe(expected);
  });

  it("counts a lone surrogate as one code point, as a spread does", () => {
    // 4 UTF-16 units, 3 code points: refused for the surrogate alone, not for its length.
    const result = text({ max: 3 }).safeParse("\uD800\uD83D\uDE00a");
    expect(result.error?.issues.map((issue) => issue.code)).toEqual(["custom"]);
  });

  it.each([
    ["abc", true],
    ["😀", true],
    ["\uD800", false],
    ["x\uDFFFy", false],
    ["", true],
  ])("isWellFormed(%j) → %s", (value, expected) => {
    expect(isWellFormed(value)).toBe(expected);
  });
});

describe("describeParam", () => {
  it.each([
    ["decimal", decimal(), { kind: "decimal", required: true }],
    [
      "decimal with min",
      decimal({ min: "0" }).optional(),
      { kind: "decimal", minimum: "0", required: false },
    ],
    [
      "integer in 32 bits",
      integer({ min: 0, max: 10 }),
      { kind: "integer", fits32Bits: true, min: 0, max: 10, required: true },
    ],
    ["integer, safe range", integer(), { kind: "integer", fits32Bits: false, required: true }],
    [
      "integer just past 32 bits",
      integer({ min: 0, max: 2 ** 31 }),
      { kind: "integer", fits32Bits: false },
    ],
    ["boolean with default", z.boolean().default(true), { kind: "boolean", required: false }],
    ["text", text({ min: 1, max: 9 }), { kind: "string", min: 1, max: 9, required: true }],
    ["plain string", z.string().max(4), { kind: "string", max: 4, required: true }],
    ["enum", z.enum(["a", "b"]).optional(), { kind: "enum", values: ["a", "b"], required: false }],
    [
      "list of decimals",
      list(decimal(), { min: 1, max: 5 }),
      { kind: "list", item: { kind: "decimal", required: true }, min: 1, max: 5, required: true },
    ],
    [
      "compact list of decimals",
      decimals({ min: 1, max: 5 }),
      { kind: "list", item: { kind: "decimal", required: true }, min: 1, max: 5, required: true },
    ],
  ])("%s", (_case, schema, expected) => {
    expect(describeParam(schema)).toMatchObject(expected);
  });

  it("gives back the schema inside the optional and default wrappers", () => {
    const inner = z.int();
    expect(describeParam(inner.optional().default(1)).schema).toBe(inner);
  });

  it.each([
    ["a float", z.number()],
    ["an object", z.object({})],
    ["a union", z.union([z.string(), z.int()])],
    ["a nullable string", z.string().nullable()],
  ])("refuses %s", (_case, schema) => {
    expect(() => describeParam(schema)).toThrow(/unsupported parameter schema type/);
  });
});

describe("decimals", () => {
  const schema = decimals({ min: 1, max: 3 });
  const fast = FAST_CHECKS.get(schema) as (value: unknown) => unknown;

  it.each([[["1", "-2.5"]], [["0.1", "1e3", `1${"0".repeat(40)}.5`]]])(
    "%j: the fast check answers what zod parses",
    (texts) => {
      const parsed = schema.parse(texts);
      expect(parsed).toBeInstanceOf(Decimals);
      expect(fast(texts)).toEqual(parsed);
    },
  );

  it.each([
    ["too few", []],
    ["too many", ["1", "2", "3", "4"]],
    ["not a number", ["1", "x"]],
    ["beyond 10,000 digits", ["1e10001"]],
    ["not a list", "1"],
  ])("%s: the fast check leaves it to zod, which refuses it", (_case, value) => {
    expect(fast(value)).toBe(UNSURE);
    expect(schema.safeParse(value).success).toBe(false);
  });
});
