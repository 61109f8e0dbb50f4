/**
 * The case styles' one-pass matching and ASCII word splitting against the code they
 * replaced, kept here as the reference: every answer must be the same.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { CASE_STYLES, matchingStyles, splitWords } from "./_styles.js";
import convert from "./convert.js";

// The former rules, per character with regular expressions.
const WORD = /^[\p{L}\p{M}\p{N}]+$/u;
const UPPERCASE = /[\p{Lu}\p{Lt}]/u;
const LOWERCASE = /\p{Ll}/u;
const CASED = /[\p{Lu}\p{Lt}\p{Ll}]/u;
const LETTER = /\p{L}/u;
const MARK = /^\p{M}$/u;
const isUppercase = (char: string | undefined) => char !== undefined && UPPERCASE.test(char);
const isLowercase = (char: string | undefined) => char !== undefined && LOWERCASE.test(char);
const hasUppercase = (text: string) => UPPERCASE.test(text);
const hasLowercase = (text: string) => LOWERCASE.test(text);
function firstCasedLetter(text: string): string | undefined {
  for (const char of text) if (CASED.test(char)) return char;
  return undefined;
}
function afterFirstCasedLetter(text: string): string {
  const chars = [...text];
  const index = chars.findIndex((char) => CASED.test(char));
  return index === -1 ? "" : chars.slice(index + 1).join("");
}
const isCapitalised = (word: string) =>
  firstCasedLetter(word) === undefined ||
  (isUppercase(firstCasedLetter(word)) && !hasUppercase(afterFirstCasedLetter(word)));
type Rule = (words: readonly string[]) => boolean;
const allLowercase: Rule = (words) => !words.some(hasUppercase);
const allUppercase: Rule = (words) => !words.some(hasLowercase) && words.some(hasUppercase);
const everyWordCapitalised: Rule = (words) =>
  words.every(isCapitalised) && words.some(hasUppercase);
const firstLetterCapitalised: Rule = (words) => {
  const text = words.join(" ");
  return isUppercase(firstCasedLetter(text)) && !hasUppercase(afterFirstCasedLetter(text));
};
const startsLowercase: Rule = (words) => !isUppercase(firstCasedLetter(words[0] ?? ""));
const startsUppercaseWithLowercase: Rule = (words) =>
  isUppercase(firstCasedLetter(words[0] ?? "")) && words.some(hasLowercase);
const RULES: Record<string, Rule> = {
  flat: allLowercase,
  upper_flat: allUppercase,
  camel: startsLowercase,
  pascal: startsUppercaseWithLowercase,
  snake: allLowercase,
  screaming_snake: allUppercase,
  kebab: allLowercase,
  screaming_kebab: allUppercase,
  train: everyWordCapitalised,
  dot: allLowercase,
  path: allLowercase,
  lower: allLowercase,
  upper: allUppercase,
  title: everyWordCapitalised,
  sentence: firstLetterCapitalised,
};

function referenceMatches(text: string): string[] {
  return CASE_STYLES.filter((style) => {
    const words = style.separator === null ? [text] : text.split(style.separator);
    return words.every((word) => WORD.test(word)) && (RULES[style.id] as Rule)(words);
  }).map((style) => style.id);
}

function referenceSplitWords(text: string): string[] {
  const words: string[] = [];
  for (const part of text.split(/[^\p{L}\p{M}\p{N}]+/u)) {
    if (part !== "") words.push(...splitAtCapitals(part));
  }
  return words;
}

function splitAtCapitals(part: string): string[] {
  const chars = [...part];
  const words: string[] = [];
  let current = "";
  let currentHasLetter = false;
  let previous: string | undefined;
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index] as string;
    if (MARK.test(char)) {
      current += char;
      continue;
    }
    if (currentHasLetter && isUppercase(char)) {
      const startsHump = !isUppercase(previous);
      const endsAcronym = !startsHump && isLowercase(nextBase(chars, index + 1));
      if (startsHump || endsAcronym) {
        words.push(current);
        current = "";
        currentHasLetter = false;
      }
    }
    current += char;
    if (!currentHasLetter && LETTER.test(char)) currentHasLetter = true;
    previous = char;
  }
  if (current !== "") words.push(current);
  return words;
}

function nextBase(chars: string[], from: number): string | undefined {
  for (let index = from; index < chars.length; index++) {
    if (!MARK.test(chars[index] as string)) return chars[index];
  }
  return undefined;
}

function referenceCapitalise(word: string): string {
  const chars = [...word.toLowerCase()];
  const index = chars.findIndex((char) => CASED.test(char));
  if (index === -1) return chars.join("");
  chars[index] = (chars[index] as string).toUpperCase();
  return chars.join("");
}

const ASCII_CHARS = [..."aAbBzZmMxX09_-./ !'\t", "2"];
const OTHER_CHARS = [
  "é", // lowercase
  "É", // uppercase
  "ß", // uppercases to SS
  "ǅ", // titlecase
  "ς",
  "Σ",
  "你", // a letter without case
  "\u0301", // a combining mark
  "İ", // lowercases to i + a combining mark
  "\u212a", // the Kelvin sign: lowercases to ASCII k
  "٣", // a digit of another script
  "😀", // beyond the BMP, not a word character
  "𝐀", // beyond the BMP, uppercase
  "𐐨", // beyond the BMP, lowercase
  "ﬀ", // a ligature: uppercases to FF
  "\u00a0", // a no-break space: not a separator
  "—",
];

const textOf = (chars: string[], maxLength: number) =>
  fc.array(fc.constantFrom(...chars), { minLength: 1, maxLength }).map((list) => list.join(""));
/** Mostly ASCII, as clients send, and mixed with the rest. */
const texts = fc.oneof(
  textOf(ASCII_CHARS, 24),
  textOf([..."abAB_"], 12),
  textOf([..."aA "], 12),
  textOf([...ASCII_CHARS, ...OTHER_CHARS], 24),
  textOf(OTHER_CHARS, 12),
);

describe("case styles against the former per-character code", () => {
  it("split a text into the same words", () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(splitWords(text)).toEqual(referenceSplitWords(text));
      }),
      { seed: 20261127, numRuns: 5000 },
    );
  });

  it("find the same matching styles", () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(matchingStyles(text).map((style) => style.id)).toEqual(referenceMatches(text));
      }),
      { seed: 20261127, numRuns: 5000 },
    );
  });

  it.each([
    "hello",
    "HELLO",
    "Hello",
    "hello_world",
    "Hello-World",
    "Hello world",
    "hello world ",
    "a__b",
    "_id",
    "x",
    "X",
    "2nd Place",
    "2nd place",
    "ǅungla",
    "你好_世界",
    "你好",
    "éCole",
    "hello\u00a0world",
    "a_b-c",
    "e\u0301",
    "HTTPResponse",
    "parseHTTPResponse",
    "𝐀bc",
    "𐐨",
  ])("%j", (text) => {
    expect(matchingStyles(text).map((style) => style.id)).toEqual(referenceMatches(text));
    expect(splitWords(text)).toEqual(referenceSplitWords(text));
  });

  it("convert cases the same words the same way", () => {
    fc.assert(
      fc.property(texts, fc.constantFrom(...CASE_STYLES.map((style) => style.id)), (text, to) => {
        const { result } = execute(convert, { text, to }) as { result: string };
        const style = CASE_STYLES.find((candidate) => candidate.id === to);
        const words = referenceSplitWords(text);
        const first = ["flat", "snake", "kebab", "dot", "path", "lower", "camel"].includes(to)
          ? "lower"
          : ["upper_flat", "screaming_snake", "screaming_kebab", "upper"].includes(to)
            ? "upper"
            : "capital";
        const rest = ["camel", "pascal", "train", "title"].includes(to)
          ? "capital"
          : to === "sentence"
            ? "lower"
            : first;
        const cased = (word: string, casing: string) =>
          casing === "lower"
            ? word.toLowerCase()
            : casing === "upper"
              ? word.toUpperCase()
              : referenceCapitalise(word);
        const expected = words
          .map((word, index) => cased(word, index === 0 ? first : rest))
          .join(style?.separator ?? "");
        expect(result).toBe(expected);
      }),
      { seed: 20261127, numRuns: 3000 },
    );
  });
});
