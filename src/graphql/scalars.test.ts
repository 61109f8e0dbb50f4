import { Kind, parseValue } from "graphql";
import { describe, expect, it } from "vitest";
import { DecimalScalar, SafeIntScalar } from "./scalars.js";

describe("Decimal", () => {
  it.each([
    ["0.1000000000000000055511151231257827", "0.1000000000000000055511151231257827"],
    ["12345678901234567890123", "12345678901234567890123"],
    ["1e400", "1e400"],
    ['"-2.5E-4"', "-2.5E-4"],
    ['"abc"', "abc"],
  ])("literal %s keeps its text", (literal, expected) => {
    expect(DecimalScalar.parseLiteral(parseValue(literal))).toBe(expected);
  });

  it("refuses literals of other kinds", () => {
    for (const literal of ["true", "null", "[1]", "{a: 1}", "FOO"]) {
      expect(() => DecimalScalar.parseLiteral(parseValue(literal)), literal).toThrow(/Decimal/);
    }
  });

  it("takes variables as strings, or JSON numbers written back as text", () => {
    expect(DecimalScalar.parseValue("0.1")).toBe("0.1");
    expect(DecimalScalar.parseValue("junk")).toBe("junk");
    expect(DecimalScalar.parseValue(0.1)).toBe("0.1");
    expect(DecimalScalar.parseValue(1e21)).toBe("1e+21");
    expect(() => DecimalScalar.parseValue(true)).toThrow();
    expect(() => DecimalScalar.parseValue(null)).toThrow();
  });
});

describe("SafeInt", () => {
  it("takes integers in the safe range, as literals, numbers or digit strings", () => {
    expect(SafeIntScalar.parseLiteral(parseValue("9007199254740991"))).toBe(9007199254740991);
    expect(SafeIntScalar.parseLiteral(parseValue('"-4000000000"'))).toBe(-4000000000);
    expect(SafeIntScalar.parseValue(-9007199254740991)).toBe(-9007199254740991);
    expect(SafeIntScalar.parseValue("42")).toBe(42);
    expect(SafeIntScalar.serialize(4000000000)).toBe(4000000000);
  });

  it("passes other numbers and text on for the operation to check; refuses other kinds", () => {
    expect(SafeIntScalar.parseLiteral(parseValue("9007199254740992"))).toBe(2 ** 53);
    expect(SafeIntScalar.parseLiteral(parseValue("1.5"))).toBe("1.5");
    expect(SafeIntScalar.parseLiteral(parseValue('"1e3"'))).toBe("1e3");
    expect(SafeIntScalar.parseValue(1.5)).toBe(1.5);
    expect(SafeIntScalar.parseValue("x")).toBe("x");
    for (const literal of ["true", "[1]", "{ a: 1 }", "SOME_ENUM"]) {
      expect(() => SafeIntScalar.parseLiteral(parseValue(literal)), literal).toThrow(/SafeInt/);
    }
    for (const value of [null, true, [1], { a: 1 }]) {
      expect(() => SafeIntScalar.parseValue(value), String(value)).toThrow();
    }
    expect(parseValue("1").kind).toBe(Kind.INT);
  });
});
