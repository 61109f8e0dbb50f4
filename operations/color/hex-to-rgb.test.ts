import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import hexToRgb from "./hex-to-rgb.js";

const run = (hex: string) => execute(hexToRgb, { hex });

describe("color/hex-to-rgb", () => {
  it.each([
    ["#000000", 0, 0, 0],
    ["#FFFFFF", 255, 255, 255],
    ["#fff", 255, 255, 255],
    ["abc", 170, 187, 204],
    ["#0a0B0c", 10, 11, 12],
  ])("%s is rgb(%i %i %i)", (hex, r, g, b) => {
    expect(run(hex)).toMatchObject({ r, g, b, css: `rgb(${r} ${g} ${b})` });
  });

  it("reads every six-digit color back to its channels", () => {
    fc.assert(
      fc.property(fc.nat(255), fc.nat(255), fc.nat(255), (r, g, b) => {
        const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
        expect(run(hex.toUpperCase())).toEqual({ hex, r, g, b, css: `rgb(${r} ${g} ${b})` });
      }),
      { seed: 20261127, numRuns: 500 },
    );
  });

  it.each([
    ["#12345", "3 or 6 hexadecimal digits, not 5"],
    ["#1234", "not 4 (forms with alpha are not accepted)"],
    ["#11223344", "not 8 (forms with alpha are not accepted)"],
    ["#", "not 0"],
    ["#12g", "'g' at index 3"],
    ["##123", "'#' at index 1"],
    ["0x123456", "'x' at index 1"],
  ])("refuses %j at hex: %s", (hex, message) => {
    const problems = problemsOf(hexToRgb, { hex });
    expect(locTypes(problems)).toEqual([[["hex"], "value_error"]]);
    expect(problems[0]?.msg).toContain(message);
  });

  it("refuses an empty hex and one over 16 characters", () => {
    expect(locTypes(problemsOf(hexToRgb, { hex: "" }))).toEqual([[["hex"], "string_too_short"]]);
    expect(problemsOf(hexToRgb, { hex: "1".repeat(17) }).map((p) => p.type)).toEqual([
      "string_too_long",
    ]);
  });

  itAnswersItsExamples(hexToRgb);
});
