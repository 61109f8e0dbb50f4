/**
 * The case styles `case/detect` knows, as data: each with its id, display name, the
 * separator between its words, and the rule its words' letters follow. The order of
 * {@link CASE_STYLES} is the priority that picks the answer among several matches.
 */

/** Every id the operation can answer, in priority order, fallbacks last. */
export const CASE_IDS = [
  "flat",
  "upper_flat",
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
  "mixed",
  "unknown",
] as const;

export type CaseId = (typeof CASE_IDS)[number];

/** Characters that join the words of a style. */
export type Separator = "_" | "-" | "." | "/" | " ";

/** One word: letters, combining marks and digits only. */
const WORD = /^[\p{L}\p{M}\p{N}]+$/u;
/** Uppercase and titlecase letters (`A`, `É`, `ǅ`). */
const UPPERCASE = /[\p{Lu}\p{Lt}]/u;
const LOWERCASE = /\p{Ll}/u;
const CASED = /[\p{Lu}\p{Lt}\p{Ll}]/u;
const LETTER = /\p{L}/u;
const MARK = /^\p{M}$/u;

const isUppercase = (char: string | undefined) => char !== undefined && UPPERCASE.test(char);
const isLowercase = (char: string | undefined) => char !== undefined && LOWERCASE.test(char);

/** True when `text` has a letter of any script; a text without one is `unknown`. */
export const hasLetter = (text: string) => LETTER.test(text);

const hasUppercase = (text: string) => UPPERCASE.test(text);
const hasLowercase = (text: string) => LOWERCASE.test(text);

/** The first letter that has a case (`2nd` → `n`); undefined for `123` or `你好`. */
function firstCasedLetter(text: string): string | undefined {
  for (const char of text) if (CASED.test(char)) return char;
  return undefined;
}

/** Everything after the first cased letter. */
function afterFirstCasedLetter(text: string): string {
  const chars = [...text];
  const index = chars.findIndex((char) => CASED.test(char));
  return index === -1 ? "" : chars.slice(index + 1).join("");
}

/**
 * First cased letter uppercase, the others not: `Hello`, `X2`, but not `HELLO`, `hello`
 * or `iPhone`. A word without cased letters (`42`, `你好`) counts as capitalised.
 */
const isCapitalised = (word: string) =>
  firstCasedLetter(word) === undefined ||
  (isUppercase(firstCasedLetter(word)) && !hasUppercase(afterFirstCasedLetter(word)));

/** How the letters of a style's words are cased. */
export type LetterRule = (words: readonly string[]) => boolean;

/** No uppercase letter anywhere (letters without case, like `你好`, are fine). */
const allLowercase: LetterRule = (words) => !words.some(hasUppercase);
/** No lowercase letter anywhere, and at least one uppercase letter. */
const allUppercase: LetterRule = (words) => !words.some(hasLowercase) && words.some(hasUppercase);
/** Every word's first cased letter is uppercase and its others lowercase; one uppercase at least. */
const everyWordCapitalised: LetterRule = (words) =>
  words.every(isCapitalised) && words.some(hasUppercase);
/** The text's first cased letter is uppercase, every other letter is not. */
const firstLetterCapitalised: LetterRule = (words) => {
  const text = words.join(" ");
  return isUppercase(firstCasedLetter(text)) && !hasUppercase(afterFirstCasedLetter(text));
};
/** One word whose first cased letter is not uppercase; capitals later are humps or acronyms. */
const startsLowercase: LetterRule = (words) => !isUppercase(firstCasedLetter(words[0] ?? ""));
/** One word whose first cased letter is uppercase, with at least one lowercase letter. */
const startsUppercaseWithLowercase: LetterRule = (words) =>
  isUppercase(firstCasedLetter(words[0] ?? "")) && words.some(hasLowercase);

export interface CaseStyle {
  id: Exclude<CaseId, "mixed" | "unknown">;
  /** The display name, itself written in the style. */
  name: string;
  /** What joins its words; null: none, the text is one word. */
  separator: Separator | null;
  letters: LetterRule;
  /** The rule in words, for the documentation. */
  rule: string;
  example: string;
}

/** The styles in priority order: the first that fits a text is its `case`. */
export const CASE_STYLES: readonly CaseStyle[] = [
  {
    id: "flat",
    name: "flatcase",
    separator: null,
    letters: allLowercase,
    rule: "one word, no uppercase letter",
    example: "helloworld",
  },
  {
    id: "upper_flat",
    name: "UPPERFLATCASE",
    separator: null,
    letters: allUppercase,
    rule: "one word, no lowercase letter",
    example: "HELLOWORLD",
  },
  {
    id: "camel",
    name: "camelCase",
    separator: null,
    letters: startsLowercase,
    rule: "one word whose first cased letter, if any, is lowercase; later capitals start words, runs of capitals are acronyms",
    example: "parseHTTPResponse",
  },
  {
    id: "pascal",
    name: "PascalCase",
    separator: null,
    letters: startsUppercaseWithLowercase,
    rule: "one word whose first cased letter is uppercase, with at least one lowercase letter; runs of capitals are acronyms",
    example: "HTTPResponse",
  },
  {
    id: "snake",
    name: "snake_case",
    separator: "_",
    letters: allLowercase,
    rule: "words joined by `_`, no uppercase letter",
    example: "hello_world",
  },
  {
    id: "screaming_snake",
    name: "SCREAMING_SNAKE_CASE",
    separator: "_",
    letters: allUppercase,
    rule: "words joined by `_`, no lowercase letter",
    example: "HELLO_WORLD",
  },
  {
    id: "kebab",
    name: "kebab-case",
    separator: "-",
    letters: allLowercase,
    rule: "words joined by `-`, no uppercase letter",
    example: "hello-world",
  },
  {
    id: "screaming_kebab",
    name: "SCREAMING-KEBAB-CASE",
    separator: "-",
    letters: allUppercase,
    rule: "words joined by `-`, no lowercase letter",
    example: "HELLO-WORLD",
  },
  {
    id: "train",
    name: "Train-Case",
    separator: "-",
    letters: everyWordCapitalised,
    rule: "words joined by `-`, each capitalised",
    example: "Hello-World",
  },
  {
    id: "dot",
    name: "dot.case",
    separator: ".",
    letters: allLowercase,
    rule: "words joined by `.`, no uppercase letter",
    example: "hello.world",
  },
  {
    id: "path",
    name: "path/case",
    separator: "/",
    letters: allLowercase,
    rule: "words joined by `/`, no uppercase letter",
    example: "hello/world",
  },
  {
    id: "lower",
    name: "lower case",
    separator: " ",
    letters: allLowercase,
    rule: "words joined by single spaces, no uppercase letter",
    example: "hello world",
  },
  {
    id: "upper",
    name: "UPPER CASE",
    separator: " ",
    letters: allUppercase,
    rule: "words joined by single spaces, no lowercase letter",
    example: "HELLO WORLD",
  },
  {
    id: "title",
    name: "Title Case",
    separator: " ",
    letters: everyWordCapitalised,
    rule: "words joined by single spaces, each capitalised",
    example: "Hello World",
  },
  {
    id: "sentence",
    name: "Sentence case",
    separator: " ",
    letters: firstLetterCapitalised,
    rule: "words joined by single spaces, only the first cased letter uppercase",
    example: "Hello world",
  },
];

/** Display names of the two fallbacks. */
export const FALLBACK_NAMES = { mixed: "mixed", unknown: "unknown" } as const;

/**
 * True when `text` is written in `style`: split at the style's separator (or not at all),
 * every part is a non-empty run of letters and digits, and the letters follow its rule.
 *
 * @example
 * fits(CASE_STYLES[4], "hello_world"); // true: snake
 * fits(CASE_STYLES[4], "hello__world"); // false: an empty word
 */
export function fits(style: CaseStyle, text: string): boolean {
  const words = style.separator === null ? [text] : text.split(style.separator);
  return words.every((word) => WORD.test(word)) && style.letters(words);
}

/**
 * The words of a text: split at every character that is not a letter, mark or digit,
 * then before a capital that follows a lowercase letter or a digit (`helloWorld`,
 * `version2Update`), and before the last capital of an acronym followed by a lowercase
 * letter (`HTTPResponse` → `HTTP`, `Response`). Digits stay with the word before them;
 * leading digits with the word after them (`2fa`).
 *
 * @example
 * splitWords("parseHTTP2Response_v2"); // ["parse", "HTTP2", "Response", "v2"]
 */
export function splitWords(text: string): string[] {
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
  // Whether `current` holds a letter yet, kept as it grows: no capital rescans it.
  let currentHasLetter = false;
  // Case is read from base characters: a combining mark takes its letter's.
  let previous: string | undefined;
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index] as string;
    if (MARK.test(char)) {
      current += char;
      continue;
    }
    if (currentHasLetter && isUppercase(char)) {
      // After a lowercase letter, a digit or a caseless letter; or ending an acronym.
      const startsHump = !isUppercase(previous);
      const endsAcronym = !startsHump && isLowercase(nextBase(chars, index + 1));
      if (startsHump || endsAcronym) {
        words.push(current);
        current = "";
        currentHasLetter = false;
      }
    }
    current += char;
    if (!currentHasLetter && hasLetter(char)) currentHasLetter = true;
    previous = char;
  }
  if (current !== "") words.push(current);
  return words;
}

/**
 * The first of `chars` from `from` on that is not a combining mark. Each mark is passed
 * over by at most the one capital before it, so splitting stays linear.
 */
function nextBase(chars: string[], from: number): string | undefined {
  for (let index = from; index < chars.length; index++) {
    if (!MARK.test(chars[index] as string)) return chars[index];
  }
  return undefined;
}
