import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples } from "../_testing.js";
import mass from "./mass.js";

const run = (value: string, from: string, to: string) =>
  execute(mass, { value, from, to }) as { decimal: string; isExact: boolean };

describe("units/mass", () => {
  itAnswersItsExamples(mass);

  it.each([
    ["1", "lb", "oz", "16", true],
    ["1", "st", "lb", "14", true],
    ["1", "lb", "gr", "7000", true],
    ["1", "ozt", "gr", "480", true],
    ["1", "short_ton", "lb", "2000", true],
    ["1", "long_ton", "lb", "2240", true],
    ["5", "ct", "g", "1", true],
    ["1", "t", "ug", "1000000000000", true],
    ["1", "kg", "lb", "2.2046226218487758072297380134502703385420702733602", false],
  ])("%s %s = %s %s", (value, from, to, decimal, isExact) => {
    expect(run(value, from, to)).toMatchObject({ decimal, isExact });
  });
});
