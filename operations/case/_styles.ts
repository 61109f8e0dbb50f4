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

/** Uppercase and titlecase letters (`A`, `É`, `ǅ`). */
const UPPERCASE = /[\p{Lu}\p{Lt}]/u;
const LOWERCASE = /\p{Ll}/u;
const LETTER = /\p{L}/u;
const MARK = /^\p{M}$/u;
/** A letter, combining mark or digit: a word's character, tested where `lastIndex` points. */
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/uy;
/**
 * The first cased letter (uppercase, titlecase or lowercase) is uppercase, and no other
 * letter is: `Hello`, `X2`, `2nd Place`, but not `HELLO`, `hello`, `iPhone` or `123`.
 */
const FIRST_ONLY_UPPERCASE = /^[^\p{Lu}\p{Lt}\p{Ll}]*[\p{Lu}\p{Lt}][^\p{Lu}\p{Lt}]*$/u;
/** No cased letter at all (`42`, `你好`). */
const UNCASED = /^[^\p{Lu}\p{Lt}\p{Ll}]*$/u;
/** The first cased letter is uppercase. */
const FIRST_CASED_UPPERCASE = /^[^\p{Lu}\p{Lt}\p{Ll}]*[\p{Lu}\p{Lt}]/u;
/** Any UTF-16 unit beyond ASCII; without one, the word splitting reads character codes. */
const NON_ASCII = /[\u0080-\uffff]/;

const isUppercase = (char: string | undefined) => char !== undefined && UPPERCASE.test(char);
const isLowercase = (char: string | undefined) => char !== undefined && LOWERCASE.test(char);

/** True when `text` has a letter of any script; a text without one is `unknown`. */
export const hasLetter = (text: string) => LETTER.test(text);

/**
 * First cased letter uppercase, the others not: `Hello`, `X2`, but not `HELLO`, `hello`
 * or `iPhone`. A word without cased letters (`42`, `你好`) counts as capitalised.
 */
const isCapitalised = (word: string) => UNCASED.test(word) || FIRST_ONLY_UPPERCASE.test(word);

/** What the letter rules read from a text's words, found once for all the styles. */
export interface LetterFacts {
  /** Some letter is uppercase (or titlecase). */
  upper: boolean;
  /** Some letter is lowercase. */
  lower: boolean;
  /** Every word is capitalised. */
  capitalised: boolean;
  /** The first word's first cased letter is uppercase. */
  firstUpper: boolean;
  /** The text's first cased letter is uppercase, and no other letter is. */
  firstOnly: boolean;
}

/** How the letters of a style's words are cased. */
export type LetterRule = (facts: LetterFacts) => boolean;

/** No uppercase letter anywhere (letters without case, like `你好`, are fine). */
const allLowercase: LetterRule = (facts) => !facts.upper;
/** No lowercase letter anywhere, and at least one uppercase letter. */
const allUppercase: LetterRule = (facts) => !facts.lower && facts.upper;
/** Every word's first cased letter is uppercase and its others lowercase; one uppercase at least. */
const everyWordCapitalised: LetterRule = (facts) => facts.capitalised && facts.upper;
/** The text's first cased letter is uppercase, every other letter is not. */
const firstLetterCapitalised: LetterRule = (facts) => facts.firstOnly;
/** One word whose first cased letter is not uppercase; capitals later are humps or acronyms. */
const startsLowercase: LetterRule = (facts) => !facts.firstUpper;
/** One word whose first cased letter is uppercase, with at least one lowercase letter. */
const startsUppercaseWithLowercase: LetterRule = (facts) => facts.firstUpper && facts.lower;

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

/** Separator characters, by code. */
const SEPARATORS = new Map<number, Separator>(
  (["_", "-", ".", "/", " "] as const).map((separator) => [separator.charCodeAt(0), separator]),
);

/** Whether an ASCII code is a letter or digit. */
const isAsciiWordCode = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/**
 * The one separator `text` uses (null when it is a single word), or undefined when it holds
 * another character that is not a letter, mark or digit, or two different separators: then
 * no style fits it.
 */
function soleSeparator(text: string): Separator | null | undefined {
  let found: Separator | null = null;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 128) {
      if (isAsciiWordCode(code)) continue;
    } else {
      WORD_CHAR.lastIndex = index;
      if (WORD_CHAR.test(text)) {
        // A character beyond the BMP is two UTF-16 units.
        if (code >= 0xd800 && code <= 0xdbff) index++;
        continue;
      }
      return undefined;
    }
    const separator = SEPARATORS.get(code);
    if (separator === undefined || (found !== null && found !== separator)) return undefined;
    found = separator;
  }
  return found;
}

/**
 * Every style `text` is written in, in priority order: split at the style's separator (or
 * not at all), every part is a non-empty run of letters, marks and digits, and the letters
 * follow its rule. The text is read once: it can fit only the styles of the one separator
 * it uses (or, with none, every style, as a single word).
 *
 * @example
 * matchingStyles("hello_world").map((style) => style.id); // ["snake"]
 * matchingStyles("hello__world"); // []: an empty word
 */
export function matchingStyles(text: string): CaseStyle[] {
  const separator = soleSeparator(text);
  if (text === "" || separator === undefined) return [];
  const words = separator === null ? [text] : text.split(separator);
  if (words.includes("")) return [];
  // Separators have no case: the letters of the words are those of the text.
  const facts: LetterFacts = {
    upper: UPPERCASE.test(text),
    lower: LOWERCASE.test(text),
    capitalised: words.every(isCapitalised),
    firstUpper: FIRST_CASED_UPPERCASE.test(words[0] as string),
    // Read on the words joined by spaces: the same as the text where it matters (the
    // sentence style, joined by spaces, or a single word).
    firstOnly: FIRST_ONLY_UPPERCASE.test(text),
  };
  const matching: CaseStyle[] = [];
  for (const style of CASE_STYLES) {
    if ((separator === null || style.separator === separator) && style.letters(facts)) {
      matching.push(style);
    }
  }
  return matching;
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
  if (!NON_ASCII.test(text)) return splitAsciiWords(text);
  const words: string[] = [];
  for (const part of text.split(/[^\p{L}\p{M}\p{N}]+/u)) {
    if (part !== "") words.push(...splitAtCapitals(part));
  }
  return words;
}

/**
 * {@link splitWords} for an ASCII text, on character codes: no combining marks, and the
 * words are slices of the text.
 */
function splitAsciiWords(text: string): string[] {
  const words: string[] = [];
  // Where the current word starts (-1: between words), whether it holds a letter yet, and
  // whether the character before was a capital (read only once the word has a letter).
  let start = -1;
  let hasLetter = false;
  let previousUpper = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const upper = code >= 65 && code <= 90;
    const lower = code >= 97 && code <= 122;
    if (!upper && !lower && !(code >= 48 && code <= 57)) {
      if (start !== -1) words.push(text.slice(start, index));
      start = -1;
      continue;
    }
    if (start === -1) {
      start = index;
      hasLetter = false;
    } else if (hasLetter && upper) {
      // After a lowercase letter or a digit; or ending an acronym, before a lowercase letter.
      const next = text.charCodeAt(index + 1);
      if (!previousUpper || (next >= 97 && next <= 122)) {
        words.push(text.slice(start, index));
        start = index;
        hasLetter = false;
      }
    }
    if (upper || lower) hasLetter = true;
    previousUpper = upper;
  }
  if (start !== -1) words.push(text.slice(start));
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
