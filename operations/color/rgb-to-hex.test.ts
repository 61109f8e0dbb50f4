import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import rgbToHex from "./rgb-to-hex.js";

describe("color/rgb-to-hex", () => {
  it.each([
    [0, 0, 0, "#000000", "#000"],
    [255, 255, 255, "#ffffff", "#fff"],
    [1, 2, 3, "#010203", null],
    [17, 34, 51, "#112233", "#123"],
    [17, 34, 52, "#112234", null],
  ])("rgb(%i %i %i) is %s", (r, g, b, hex, shortHex) => {
    expect(execute(rgbToHex, { r, g, b })).toEqual({ hex, shortHex });
  });

  it.each([
    [{ r: 256, g: 0, b: 0 }, "r", "less_than_equal"],
    [{ r: 0, g: -1, b: 0 }, "g", "greater_than_equal"],
    [{ r: 0, g: 0, b: 1.5 }, "b", "int_parsing"],
  ])("refuses %j at %s", (input, loc, type) => {
    expect(locTypes(problemsOf(rgbToHex, input))).toEqual([[[loc], type]]);
  });

  itAnswersItsExamples(rgbToHex);
});
