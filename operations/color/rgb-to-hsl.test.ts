import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import { referenceHsl } from "./_color-reference.js";
import rgbToHsl from "./rgb-to-hsl.js";

interface Answer {
  h: number;
  s: number;
  l: number;
  exact: { h: string; s: string; l: string };
  css: string;
}

const run = (input: Record<string, unknown>) => execute(rgbToHsl, input) as Answer;

describe("color/rgb-to-hsl", () => {
  it.each([
    [0, 0, 0, 0, 0, 0],
    [255, 255, 255, 0, 0, 100],
    [255, 0, 0, 0, 100, 50],
    [0, 255, 0, 120, 100, 50],
    [0, 0, 255, 240, 100, 50],
    [255, 0, 255, 300, 100, 50],
    [128, 128, 128, 0, 0, 50.2],
  ])("rgb(%i %i %i) is hsl(%s %s%% %s%%)", (r, g, b, h, s, l) => {
    expect(run({ r, g, b })).toMatchObject({ h, s, l });
  });

  it("agrees with floating point to 1e-9 before rounding", () => {
    fc.assert(
      fc.property(fc.nat(255), fc.nat(255), fc.nat(255), (r, g, b) => {
        const { exact } = run({ r, g, b });
        const [h, s, l] = referenceHsl(r, g, b);
        expect(Number(exact.h)).toBeCloseTo(h, 9);
        expect(Number(exact.s)).toBeCloseTo(s, 9);
        expect(Number(exact.l)).toBeCloseTo(l, 9);
      }),
      { seed: 20261127, numRuns: 2000 },
    );
  });

  it("rounds half up to the places asked, and a hue rounding to 360 is 0", () => {
    // rgb(255 0 1): hue 360 − 60/255 = 359.764…
    expect(run({ r: 255, g: 0, b: 1, places: 0 })).toMatchObject({ h: 0, l: 50 });
    expect(run({ r: 255, g: 0, b: 1, places: 1 })).toMatchObject({ h: 359.8 });
    // rgb(240 1 0): hue 60/240 = 0.25 exactly, a tie: half up gives 0.3 (half even 0.2).
    expect(run({ r: 240, g: 1, b: 0, places: 1 })).toMatchObject({ h: 0.3, exact: { h: "0.25" } });
    // rgb(1 1 1): l = 20/51 = 0.39215…
    expect(run({ r: 1, g: 1, b: 1, places: 3 })).toMatchObject({ l: 0.392 });
    // l = 10·(max+min)/51 terminates at 51·k: rgb(51 51 51) is exactly 20 %.
    expect(run({ r: 51, g: 51, b: 51 })).toMatchObject({ l: 20, exact: { l: "20" } });
    // rgb(255 64 0): hue 60·64/255 = 15.0588…; with places 10, 15.0588235294.
    expect(run({ r: 255, g: 64, b: 0, places: 10 }).h).toBe(15.0588235294);
  });

  it("writes the CSS form of the rounded values", () => {
    expect(run({ r: 30, g: 144, b: 255, places: 1 }).css).toBe("hsl(209.6 100% 55.9%)");
  });

  it.each([
    [{ r: 0, g: 0, b: 0, places: 11 }, "places", "less_than_equal"],
    [{ r: 0, g: 0, b: 256 }, "b", "less_than_equal"],
  ])("refuses %j at %s", (input, loc, type) => {
    expect(locTypes(problemsOf(rgbToHsl, input))).toEqual([[[loc], type]]);
  });

  itAnswersItsExamples(rgbToHsl);
});
