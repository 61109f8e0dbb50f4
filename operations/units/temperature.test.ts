import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import temperature from "./temperature.js";

const run = (input: Record<string, unknown>) =>
  execute(temperature, input) as { decimal: string; isExact: boolean; result: number };

describe("units/temperature", () => {
  itAnswersItsExamples(temperature);

  it.each([
    ["0", "celsius", "fahrenheit", "32", true],
    ["100", "celsius", "fahrenheit", "212", true],
    ["-40", "celsius", "fahrenheit", "-40", true],
    ["-40", "fahrenheit", "celsius", "-40", true],
    ["0", "celsius", "kelvin", "273.15", true],
    ["0", "kelvin", "celsius", "-273.15", true],
    ["0", "kelvin", "fahrenheit", "-459.67", true],
    ["-459.67", "fahrenheit", "kelvin", "0", true],
    ["491.67", "rankine", "celsius", "0", true],
    ["0", "celsius", "rankine", "491.67", true],
    ["1", "kelvin", "rankine", "1.8", true],
    ["1", "rankine", "kelvin", "0.55555555555555555555555555555555555555555555555556", false],
    ["98.6", "fahrenheit", "celsius", "37", true],
    ["25.5", "celsius", "celsius", "25.5", true],
  ])("%s %s = %s %s", (value, from, to, decimal, isExact) => {
    expect(run({ value, from, to })).toMatchObject({ decimal, isExact });
  });

  it.each([
    ["10", "celsius", "fahrenheit", "18"],
    ["-18", "fahrenheit", "celsius", "-10"],
    ["1", "kelvin", "celsius", "1"],
    ["9", "rankine", "kelvin", "5"],
  ])("a difference of %s %s is %s %s", (value, from, to, decimal) => {
    expect(run({ value, from, to, difference: true })).toMatchObject({ decimal, isExact: true });
  });

  it.each([
    ["-273.16", "celsius"],
    ["-459.68", "fahrenheit"],
    ["-0.000001", "kelvin"],
    ["-1", "rankine"],
  ])("refuses %s %s, below absolute zero", (value, from) => {
    expect(locTypes(problemsOf(temperature, { value, from, to: "kelvin" }))).toEqual([
      [["value"], "value_error"],
    ]);
  });

  it("accepts absolute zero itself and negative differences", () => {
    expect(run({ value: "-273.15", from: "celsius", to: "kelvin" }).decimal).toBe("0");
    expect(run({ value: "-500", from: "celsius", to: "kelvin", difference: true }).decimal).toBe(
      "-500",
    );
  });
});
