import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import hslToHex from "./hsl-to-hex.js";
import hslToRgb from "./hsl-to-rgb.js";

describe("color/hsl-to-hex", () => {
  it.each([
    ["0", "100", "50"],
    ["200.5", "12.25", "87.5"],
    ["-30", "40", "60"],
  ])("answers what hsl-to-rgb does for hsl(%s %s%% %s%%)", (h, s, l) => {
    expect(execute(hslToHex, { h, s, l })).toEqual(execute(hslToRgb, { h, s, l }));
  });

  it("refuses out-of-range lightness at l", () => {
    expect(locTypes(problemsOf(hslToHex, { h: "0", s: "0", l: "100.01" }))).toEqual([
      [["l"], "value_error"],
    ]);
  });

  itAnswersItsExamples(hslToHex);
});
