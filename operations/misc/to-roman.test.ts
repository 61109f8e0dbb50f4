import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import fromRoman from "./from-roman.js";
import toRoman from "./to-roman.js";

const roman = (number: number) => (execute(toRoman, { number }) as { roman: string }).roman;

describe("misc/to-roman", () => {
  itAnswersItsExamples(toRoman);

  it.each([
    [1, "I"],
    [3, "III"],
    [4, "IV"],
    [9, "IX"],
    [14, "XIV"],
    [40, "XL"],
    [90, "XC"],
    [400, "CD"],
    [900, "CM"],
    [1666, "MDCLXVI"],
    [2024, "MMXXIV"],
    [3888, "MMMDCCCLXXXVIII"],
    [3999, "MMMCMXCIX"],
  ])("%i → %s", (number, expected) => {
    expect(roman(number)).toBe(expected);
  });

  it("round-trips every number from 1 to 3,999 through misc/from-roman", () => {
    const wrong: number[] = [];
    for (let n = 1; n <= 3999; n++) {
      const back = execute(fromRoman, { roman: roman(n) }) as { number: number };
      if (back.number !== n) wrong.push(n);
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    [0, "greater_than_equal"],
    [-1, "greater_than_equal"],
    [4000, "less_than_equal"],
    [1.5, "int_parsing"],
  ])("refuses %s (%s)", (number, type) => {
    expect(locTypes(problemsOf(toRoman, { number }))).toEqual([[["number"], type]]);
  });
});
