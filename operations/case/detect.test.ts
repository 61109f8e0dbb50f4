import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import { CASE_IDS, CASE_STYLES, splitWords } from "./_styles.js";
import detect from "./detect.js";

interface Result {
  case: string;
  name: string;
  matches: string[];
  words: string[];
}

const run = (text: string) => execute(detect, { text }) as Result;

describe("case/detect", () => {
  it("knows every id of the contract, with the contract's display names", () => {
    expect(CASE_IDS).toEqual(
      expect.arrayContaining([
        "camel",
        "pascal",
        "snake",
        "screaming_snake",
        "kebab",
        "screaming_kebab",
        "train",
        "dot",
        "path",
        "lower",
        "upper",
        "title",
        "sentence",
        "flat",
        "upper_flat",
        "mixed",
        "unknown",
      ]),
    );
    expect(CASE_IDS).toHaveLength(17);
    expect(Object.fromEntries(CASE_STYLES.map((s) => [s.id, s.name]))).toEqual({
      camel: "camelCase",
      pascal: "PascalCase",
      snake: "snake_case",
      screaming_snake: "SCREAMING_SNAKE_CASE",
      kebab: "kebab-case",
      screaming_kebab: "SCREAMING-KEBAB-CASE",
      train: "Train-Case",
      dot: "dot.case",
      path: "path/case",
      lower: "lower case",
      upper: "UPPER CASE",
      title: "Title Case",
      sentence: "Sentence case",
      flat: "flatcase",
      upper_flat: "UPPERFLATCASE",
    });
  });

  it.each(CASE_STYLES.map((style) => [style.id, style.example] as const))(
    "documents for %s an example that detects as it",
    (id, example) => {
      expect(run(example).case).toBe(id);
    },
  );

  it.each(CASE_STYLES.map((style) => [style.name, style.id] as const))(
    "writes the display name %j in its own style",
    (name, id) => {
      expect(run(name).matches).toContain(id);
    },
  );

  describe("each style", () => {
    it.each([
      // text, case, every match
      ["helloWorld", "camel", ["camel"]],
      ["getHttpResponseCode", "camel", ["camel"]],
      ["xIsBig", "camel", ["camel"]],
      ["HelloWorld", "pascal", ["pascal"]],
      ["UserAccount", "pascal", ["pascal"]],
      ["hello_world", "snake", ["snake"]],
      ["max_retry_count", "snake", ["snake"]],
      ["HELLO_WORLD", "screaming_snake", ["screaming_snake"]],
      ["MAX_RETRY_COUNT", "screaming_snake", ["screaming_snake"]],
      ["hello-world", "kebab", ["kebab"]],
      ["content-type-options", "kebab", ["kebab"]],
      ["HELLO-WORLD", "screaming_kebab", ["screaming_kebab"]],
      ["X-FORWARDED-FOR", "screaming_kebab", ["screaming_kebab"]],
      ["Hello-World", "train", ["train"]],
      ["Content-Type", "train", ["train"]],
      ["hello.world", "dot", ["dot"]],
      ["app.config.json", "dot", ["dot"]],
      ["hello/world", "path", ["path"]],
      ["src/kit/index", "path", ["path"]],
      ["hello world", "lower", ["lower"]],
      ["the quick brown fox", "lower", ["lower"]],
      ["HELLO WORLD", "upper", ["upper"]],
      ["THE QUICK FOX", "upper", ["upper"]],
      ["Hello World", "title", ["title"]],
      ["The Quick Brown Fox", "title", ["title"]],
      ["Hello world", "sentence", ["sentence"]],
      ["The quick brown fox", "sentence", ["sentence"]],
      ["helloworld", "flat", ["flat", "camel", "snake", "kebab", "dot", "path", "lower"]],
      ["HELLOWORLD", "upper_flat", ["upper_flat", "screaming_snake", "screaming_kebab", "upper"]],
    ])("%j is %s", (text, id, matches) => {
      expect(run(text)).toMatchObject({ case: id, matches });
    });
  });

  describe("single words", () => {
    it.each([
      ["hello", "flat", ["flat", "camel", "snake", "kebab", "dot", "path", "lower"]],
      ["Hello", "pascal", ["pascal", "train", "title", "sentence"]],
      ["HELLO", "upper_flat", ["upper_flat", "screaming_snake", "screaming_kebab", "upper"]],
      ["a", "flat", ["flat", "camel", "snake", "kebab", "dot", "path", "lower"]],
      [
        "A",
        "upper_flat",
        ["upper_flat", "screaming_snake", "screaming_kebab", "train", "upper", "title", "sentence"],
      ],
      ["hELLO", "camel", ["camel"]],
    ])("%j is %s, consistent with %j", (text, id, matches) => {
      expect(run(text)).toMatchObject({ case: id, matches });
    });
  });

  describe("digits belong to the word they touch", () => {
    it.each([
      ["version2Update", "camel", ["version2", "Update"]],
      ["Version2Update", "pascal", ["Version2", "Update"]],
      ["v2_api", "snake", ["v2", "api"]],
      ["HTTP2_SERVER", "screaming_snake", ["HTTP2", "SERVER"]],
      ["utf-8", "kebab", ["utf", "8"]],
      ["2fa", "flat", ["2fa"]],
      ["Chapter 2", "title", ["Chapter", "2"]],
      ["2 apples", "lower", ["2", "apples"]],
      ["base64", "flat", ["base64"]],
    ])("%j is %s, words %j", (text, id, words) => {
      expect(run(text)).toMatchObject({ case: id, words });
    });
  });

  describe("acronyms", () => {
    it.each([
      ["parseHTTPResponse", "camel", ["parse", "HTTP", "Response"]],
      ["XMLHttpRequest", "pascal", ["XML", "Http", "Request"]],
      ["HTTPServer", "pascal", ["HTTP", "Server"]],
      ["userID", "camel", ["user", "ID"]],
      ["iOS", "camel", ["i", "OS"]],
      ["NASA Launches Rocket", "mixed", ["NASA", "Launches", "Rocket"]],
      ["Use the API", "mixed", ["Use", "the", "API"]],
    ])("%j is %s, words %j", (text, id, words) => {
      expect(run(text)).toMatchObject({ case: id, words });
    });
  });

  describe("unicode letters", () => {
    it.each([
      ["café_crème", "snake"],
      ["CAFÉ_CRÈME", "screaming_snake"],
      ["Éclair", "pascal"],
      ["ÉCLAIR", "upper_flat"],
      ["straße", "flat"],
      ["naïveApproach", "camel"],
      ["e\u0301clairWorld", "camel"], // a decomposed é: the mark stays with its letter
      ["Привет Мир", "title"],
      ["привет_мир", "snake"],
      ["Σίσυφος", "pascal"],
      ["你好", "flat"], // letters without case break no lowercase rule
      ["你好 世界", "lower"],
    ])("%j is %s", (text, id) => {
      expect(run(text).case).toBe(id);
    });
  });

  describe("mixed: letters, but no single style", () => {
    it.each([
      ["hello_World-foo", ["hello", "World", "foo"]],
      ["hello_World", ["hello", "World"]],
      ["Hello_World", ["Hello", "World"]],
      ["hello-world_foo", ["hello", "world", "foo"]],
      ["Hello/World", ["Hello", "World"]],
      ["hello World", ["hello", "World"]],
      ["Hello, world!", ["Hello", "world"]],
      ["_private", ["private"]],
      ["trailing_", ["trailing"]],
      ["a__b", ["a", "b"]],
      ["/usr/bin", ["usr", "bin"]],
      ["hello  world", ["hello", "world"]],
      [" hello", ["hello"]],
      ["hello\tworld", ["hello", "world"]],
      ["don't", ["don", "t"]],
    ])("%j", (text, words) => {
      expect(run(text)).toEqual({ case: "mixed", name: "mixed", matches: ["mixed"], words });
    });
  });

  describe("unknown: no letters", () => {
    it.each([
      ["123", ["123"]],
      ["---", []],
      ["1_2", ["1", "2"]],
      [" ", []],
      ["\t\n", []],
      ["😀", []],
    ])("%j", (text, words) => {
      expect(run(text)).toEqual({ case: "unknown", name: "unknown", matches: ["unknown"], words });
    });
  });

  describe("words", () => {
    it.each([
      ["parseHTTP2Response_v2", ["parse", "HTTP2", "Response", "v2"]],
      ["ABc", ["A", "Bc"]],
      ["helloWorld", ["hello", "World"]],
      ["Hello World", ["Hello", "World"]],
      ["", []],
    ])("%j → %j", (text, words) => {
      expect(splitWords(text)).toEqual(words);
    });
  });

  describe("limits", () => {
    it("takes 1000 characters", () => {
      expect(run(`a${"_b".repeat(499)}c`).case).toBe("snake");
    });

    it("counts characters as code points: 1000 emoji are accepted", () => {
      expect(run("😀".repeat(1000)).case).toBe("unknown");
    });

    it.each([
      ["1001 characters", "a".repeat(1001), "string_too_long"],
      ["1001 emoji", "😀".repeat(1001), "string_too_long"],
      ["an empty text", "", "string_too_short"],
      ["a missing text", undefined, "missing"],
    ])("refuses %s", (_, text, type) => {
      expect(locTypes(problemsOf(detect, { text }))).toEqual([[["text"], type]]);
    });
  });

  itAnswersItsExamples(detect);
});
