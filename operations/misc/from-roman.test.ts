import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import fromRoman from "./from-roman.js";

const run = (roman: string) => execute(fromRoman, { roman }) as { roman: string; number: number };

describe("misc/from-roman", () => {
  itAnswersItsExamples(fromRoman);

  it.each([
    ["I", 1],
    ["iv", 4],
    ["IX", 9],
    ["XLIX", 49],
    ["XCIX", 99],
    ["CDXLIV", 444],
    ["MMMCMXCIX", 3999],
    ["MmXxIv", 2024],
  ])("%s → %i", (roman, number) => {
    expect(run(roman)).toEqual({ roman: roman.toUpperCase(), number });
  });

  it.each([
    ["IIII", "4 is written IV"],
    ["VV", "10 is written X"],
    ["IC", "99 is written XCIX"],
    ["IL", "49 is written XLIX"],
    ["XM", "990 is written CMXC"],
    ["VX", "5 is written V"],
    ["IIX", "10 is written X"],
    ["MCMC", "2000 is written MM"],
    ["DD", "1000 is written M"],
    ["MMMM", "numbers from 4,000 have no standard form"],
    ["ABC", "only the letters"],
    ["X V", "only the letters"],
    ["Ⅻ", "only the letters"],
    ["12", "only the letters"],
  ])("refuses %j, saying %j", (roman, message) => {
    const [problem, ...rest] = problemsOf(fromRoman, { roman });
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ loc: ["roman"], type: "value_error" });
    expect(problem?.msg).toContain(message);
  });

  it.each([
    ["", "string_too_short"],
    ["M".repeat(33), "string_too_long"],
  ])("refuses %j (%s)", (roman, type) => {
    expect(locTypes(problemsOf(fromRoman, { roman }))).toEqual([[["roman"], type]]);
  });
});
