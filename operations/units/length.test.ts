import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import length from "./length.js";

const run = (value: string, from: string, to: string) =>
  execute(length, { value, from, to }) as { decimal: string; isExact: boolean; result: number };

describe("units/length", () => {
  itAnswersItsExamples(length);

  it.each([
    ["1", "in", "mm", "25.4", true],
    ["1", "ft", "in", "12", true],
    ["1", "yd", "ft", "3", true],
    ["1", "mi", "yd", "1760", true],
    ["1", "mi", "ft", "5280", true],
    ["1", "fathom", "ft", "6", true],
    ["1", "furlong", "yd", "220", true],
    ["1000", "mil", "in", "1", true],
    ["1", "nmi", "m", "1852", true],
    ["1", "ly", "au", "63241.077084266280268653583182317313557859349932579", false],
    ["-2.5", "km", "m", "-2500", true],
    ["0", "au", "nm", "0", true],
    ["1e-9", "m", "nm", "1", true],
    ["1", "km", "mi", "0.62137119223733396961743418436331822158593812137119", false],
  ])("%s %s = %s %s", (value, from, to, decimal, isExact) => {
    expect(run(value, from, to)).toMatchObject({ decimal, isExact });
  });

  it("goes back exactly from a terminating conversion", () => {
    const there = run("123.456", "ft", "m");
    expect(there).toMatchObject({ decimal: "37.6293888", isExact: true });
    expect(run(there.decimal, "m", "ft").decimal).toBe("123.456");
  });

  it("refuses an unknown unit and a value too long to write", () => {
    expect(locTypes(problemsOf(length, { value: "1", from: "parsec", to: "m" }))).toEqual([
      [["from"], "enum"],
    ]);
    expect(locTypes(problemsOf(length, { value: "1e9999", from: "ly", to: "nm" }))).toEqual([
      [[], "value_error"],
    ]);
  });
});
