import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import { referenceRgb } from "./_color-reference.js";
import hslToRgb from "./hsl-to-rgb.js";
import rgbToHsl from "./rgb-to-hsl.js";

interface Answer {
  hex: string;
  r: number;
  g: number;
  b: number;
  exact: { r: string; g: string; b: string };
}

const run = (input: Record<string, unknown>) => execute(hslToRgb, input) as Answer;

describe("color/hsl-to-rgb", () => {
  it.each([
    ["0", "100", "50", "#ff0000"],
    ["120", "100", "50", "#00ff00"],
    ["240", "100", "50", "#0000ff"],
    ["360", "100", "50", "#ff0000"],
    ["720.5", "0", "50", "#808080"],
    ["-0", "100", "50", "#ff0000"],
    ["60", "100", "50", "#ffff00"],
    ["0", "0", "0", "#000000"],
    ["0", "0", "100", "#ffffff"],
    ["1000000", "100", "50", "#aa00ff"], // 280°,
  ])("hsl(%s %s%% %s%%) is %s", (h, s, l, hex) => {
    expect(run({ h, s, l }).hex).toBe(hex);
  });

  it("agrees with floating point to 1e-9, and rounds to its nearest integers", () => {
    const percent = fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100);
    fc.assert(
      fc.property(fc.integer({ min: -72_000, max: 72_000 }), percent, percent, (tenths, s, l) => {
        const h = tenths / 10;
        const answer = run({ h: String(h), s: String(s), l: String(l) });
        const reference = referenceRgb(((h % 360) + 360) % 360, s, l);
        const channels = [answer.exact.r, answer.exact.g, answer.exact.b].map(Number);
        channels.forEach((value, i) => {
          expect(value).toBeCloseTo(reference[i] ?? Number.NaN, 9);
        });
        expect([answer.r, answer.g, answer.b]).toEqual(
          channels.map((value) => Math.floor(value + 0.5)),
        );
      }),
      { seed: 20261127, numRuns: 2000 },
    );
  });

  it("round-trips every RGB color through HSL at 10 places", () => {
    fc.assert(
      fc.property(fc.nat(255), fc.nat(255), fc.nat(255), (r, g, b) => {
        const hsl = execute(rgbToHsl, { r, g, b, places: 10 }) as Record<string, number>;
        const back = run({ h: String(hsl.h), s: String(hsl.s), l: String(hsl.l) });
        expect([back.r, back.g, back.b]).toEqual([r, g, b]);
      }),
      { seed: 20261127, numRuns: 1000 },
    );
  });

  it.each([
    [{ h: "0", s: "100.5", l: "50" }, "s", "at most 100"],
    [{ h: "0", s: "50", l: "101" }, "l", "at most 100"],
    [{ h: "1000000.5", s: "50", l: "50" }, "h", "within ±1000000"],
    [{ h: "0.00000000001", s: "50", l: "50" }, "h", "at most 10 decimal places"],
    [{ h: "0", s: "1.00000000001", l: "50" }, "s", "at most 10 decimal places"],
  ])("refuses %j at %s", (input, loc, message) => {
    const problems = problemsOf(hslToRgb, input);
    expect(locTypes(problems)).toEqual([[[loc], "value_error"]]);
    expect(problems[0]?.msg).toContain(message);
  });

  it("refuses a negative saturation and a hue that is not a number", () => {
    expect(locTypes(problemsOf(hslToRgb, { h: "0", s: "-1", l: "50" }))).toEqual([
      [["s"], "greater_than_equal"],
    ]);
    expect(locTypes(problemsOf(hslToRgb, { h: "red", s: "1", l: "50" }))).toEqual([
      [["h"], "float_parsing"],
    ]);
  });

  itAnswersItsExamples(hslToRgb);
});
