import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import statistics from "./statistics.js";

const run = (text: string, wordsPerMinute?: number) =>
  execute(statistics, { text, wordsPerMinute }) as Record<string, number>;

describe("text/statistics", () => {
  itAnswersItsExamples(statistics);

  it.each([
    ["", 0],
    ["one line", 1],
    ["ends with a break\n", 1],
    ["two\nlines", 2],
    ["crlf\r\nis one break\r\n", 2],
    ["cr\ralone", 2],
    ["\n", 1],
    ["\n\n", 2],
    ["ls\u2028ps\u2029nel\u0085end", 4],
  ])("%j has %i lines", (text, lines) => {
    expect(run(text).lines).toBe(lines);
  });

  it("counts code points, graphemes, UTF-16 units and UTF-8 bytes apart", () => {
    expect(run("e\u0301")).toMatchObject({ characters: 2, graphemes: 1, utf16Units: 2, bytes: 3 });
    expect(run("👨‍👩‍👧‍👦")).toMatchObject({
      characters: 7,
      graphemes: 1,
      utf16Units: 11,
      bytes: 25,
    });
    expect(run("🇫🇷")).toMatchObject({ characters: 2, graphemes: 1, bytes: 8 });
  });

  it("counts words without punctuation, and sentences", () => {
    expect(run("Don't panic: 3.14 is π, isn't it?")).toMatchObject({ words: 7, sentences: 1 });
    expect(run("One. Two! Three?")).toMatchObject({ words: 3, sentences: 3 });
    expect(run("  ... !!! ")).toMatchObject({ words: 0 });
  });

  it("rounds the reading time up at the stated speed", () => {
    const text = "word ".repeat(401);
    expect(run(text)).toMatchObject({ words: 401, readingTimeSeconds: 121, readingTimeMinutes: 3 });
    expect(run(text, 401)).toMatchObject({ readingTimeSeconds: 60, readingTimeMinutes: 1 });
    expect(run("")).toMatchObject({ readingTimeSeconds: 0, readingTimeMinutes: 0 });
  });

  it("declares more work for text Intl must segment with dictionaries", () => {
    const ascii = statistics.cost?.(statistics.input.parse({ text: "a".repeat(20_000) }));
    const cjk = statistics.cost?.(statistics.input.parse({ text: "你".repeat(20_000) }));
    expect(ascii?.work).toBeLessThanOrEqual(20_000_000);
    expect(cjk?.work).toBeGreaterThan(20_000_000);
  });

  it("refuses texts over 20,000 characters and out-of-range speeds", () => {
    expect(locTypes(problemsOf(statistics, { text: "a".repeat(20_001) }))).toEqual([
      [["text"], "string_too_long"],
    ]);
    expect(locTypes(problemsOf(statistics, { text: "a", wordsPerMinute: 0 }))).toEqual([
      [["wordsPerMinute"], "greater_than_equal"],
    ]);
  });
});
