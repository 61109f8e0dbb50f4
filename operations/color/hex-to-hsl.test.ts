import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import hexToHsl from "./hex-to-hsl.js";
import rgbToHsl from "./rgb-to-hsl.js";

describe("color/hex-to-hsl", () => {
  it.each([
    ["#ff0000", 255, 0, 0],
    ["808080", 128, 128, 128],
    ["#1E90FF", 30, 144, 255],
  ])("%s answers what rgb-to-hsl does for its channels", (hex, r, g, b) => {
    const { hex: normalised, ...hsl } = execute(hexToHsl, { hex, places: 3 }) as Record<
      string,
      unknown
    >;
    expect(normalised).toBe(hex.toLowerCase().replace(/^#?/, "#"));
    expect(hsl).toEqual(execute(rgbToHsl, { r, g, b, places: 3 }));
  });

  it("refuses a malformed hex at hex", () => {
    expect(locTypes(problemsOf(hexToHsl, { hex: "#12" }))).toEqual([[["hex"], "value_error"]]);
  });

  itAnswersItsExamples(hexToHsl);
});
