import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import slugify from "./slugify.js";

const run = (input: Record<string, unknown>) =>
  (execute(slugify, input) as { slug: string; length: number }).slug;

describe("text/slugify", () => {
  itAnswersItsExamples(slugify);

  it.each([
    ["Hello World", "hello-world"],
    ["  leading and trailing  ", "leading-and-trailing"],
    ["many   spaces --- and dashes", "many-spaces-and-dashes"],
    ["Crème Brûlée", "creme-brulee"],
    ["Ærøskøbing", "aeroskobing"],
    ["Łódź", "lodz"],
    ["Þingvellir", "thingvellir"],
    ["ﬁ ﬂ ①", "fi-fl-1"],
    ["C++ & C#", "c-c"],
    ["emoji 🎉 party", "emoji-party"],
    ["日本語", ""],
    ["", ""],
    ["2024-11-27: Release v1.2", "2024-11-27-release-v1-2"],
  ])("%j → %j", (text, slug) => {
    expect(run({ text })).toBe(slug);
  });

  it("keeps other scripts with ascii=false, composed", () => {
    expect(run({ text: "Crème 日本語 Ελληνικά", ascii: false })).toBe("crème-日本語-ελληνικά");
  });

  it("keeps case and uses the separator asked for", () => {
    expect(run({ text: "Hello Big World", lowercase: false, separator: "." })).toBe(
      "Hello.Big.World",
    );
    expect(run({ text: "a b", separator: "_" })).toBe("a_b");
  });

  it.each([
    [5, "hello"],
    [8, "hello"],
    [11, "hello-world"],
    [14, "hello-world"],
    [3, "hel"],
  ])("cuts at a word within maxLength %i: %s", (maxLength, slug) => {
    expect(run({ text: "Hello World Again", maxLength })).toBe(slug);
  });

  it("refuses a maxLength below 1 and texts over 2,000 characters", () => {
    expect(locTypes(problemsOf(slugify, { text: "a", maxLength: 0 }))).toEqual([
      [["maxLength"], "greater_than_equal"],
    ]);
    expect(locTypes(problemsOf(slugify, { text: "a".repeat(2001) }))).toEqual([
      [["text"], "string_too_long"],
    ]);
  });

  it("keeps the answer within its declared bytes when decomposition lengthens it", () => {
    const text = "\uFDFA".repeat(2000);
    const cost = slugify.cost?.(slugify.input.parse({ text }));
    const answer = execute(slugify, { text });
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThanOrEqual(cost?.bytes ?? 0);
  });
});
