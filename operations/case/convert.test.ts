import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import { CASE_STYLES } from "./_styles.js";
import convert from "./convert.js";
import detect from "./detect.js";

const run = (text: string, to: string) =>
  execute(convert, { text, to }) as { result: string; words: string[] };

describe("case/convert", () => {
  itAnswersItsExamples(convert);

  it.each([
    ["hello world", "flat", "helloworld"],
    ["hello world", "upper_flat", "HELLOWORLD"],
    ["hello world", "camel", "helloWorld"],
    ["XMLHttpRequest", "camel", "xmlHttpRequest"],
    ["XMLHttpRequest", "kebab", "xml-http-request"],
    ["version2Update", "snake", "version2_update"],
    ["hello-world", "screaming_kebab", "HELLO-WORLD"],
    ["hello_world", "train", "Hello-World"],
    ["Hello World", "dot", "hello.world"],
    ["Hello World", "path", "hello/world"],
    ["helloWorld", "lower", "hello world"],
    ["helloWorld", "upper", "HELLO WORLD"],
    ["HELLO_WORLD", "sentence", "Hello world"],
    ["2fa code", "pascal", "2FaCode"],
    ["straße", "upper", "STRASSE"],
    ["élan vital", "camel", "élanVital"],
    ["  --  ", "snake", ""],
    ["你好 世界", "kebab", "你好-世界"],
  ])("%s → %s: %s", (text, to, result) => {
    expect(run(text, to).result).toBe(result);
  });

  // The inverse of case/detect: what convert writes, detect reads back as that style.
  const samples = [
    "parseHTTPResponse",
    "the quick brown fox",
    "MAX_RETRY_COUNT",
    "Hello-World",
    "über café naïve",
    "XMLHttpRequest2",
  ];
  it.each(CASE_STYLES.map((style) => [style.id]))("detect reads back %s", (to) => {
    for (const text of samples) {
      const { result } = run(text, to);
      const detected = execute(detect, { text: result }) as { matches: string[] };
      expect(detected.matches, `${text} → ${result}`).toContain(to);
    }
  });

  it("writes one letter in Pascal case as detect reads upper flat case", () => {
    expect(run("a", "pascal").result).toBe("A");
  });

  it("refuses an empty text and an unknown style", () => {
    expect(locTypes(problemsOf(convert, { text: "", to: "snake" }))).toEqual([
      [["text"], "string_too_short"],
    ]);
    expect(locTypes(problemsOf(convert, { text: "a", to: "mixed" }))).toEqual([[["to"], "enum"]]);
  });

  it("keeps its answer within the declared bytes for the longest text", () => {
    const text = "ß".repeat(1000);
    const cost = convert.cost?.(convert.input.parse({ text, to: "upper" }));
    const bytes = Buffer.byteLength(JSON.stringify(execute(convert, { text, to: "upper" })));
    expect(bytes).toBeLessThanOrEqual(cost?.bytes ?? 0);
  });
});
