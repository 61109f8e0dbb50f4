import { defineOperation, ITEM_WORK, jsonBytes, text, z } from "#kit";
import { CASE_STYLES, type CaseStyle, splitWords } from "./_styles.js";

/** Longest text accepted, in characters (Unicode code points), as `case/detect`. */
const MAX_TEXT_CHARACTERS = 1000;

type StyleId = CaseStyle["id"];
const STYLE_IDS = CASE_STYLES.map((style) => style.id) as [StyleId, ...StyleId[]];
const STYLES = new Map(CASE_STYLES.map((style) => [style.id, style]));

/** How each style cases its words: all lower, all upper, capitalised, or the first differently. */
const LETTERS: Record<StyleId, { first: Casing; rest: Casing }> = {
  flat: { first: "lower", rest: "lower" },
  upper_flat: { first: "upper", rest: "upper" },
  camel: { first: "lower", rest: "capital" },
  pascal: { first: "capital", rest: "capital" },
  snake: { first: "lower", rest: "lower" },
  screaming_snake: { first: "upper", rest: "upper" },
  kebab: { first: "lower", rest: "lower" },
  screaming_kebab: { first: "upper", rest: "upper" },
  train: { first: "capital", rest: "capital" },
  dot: { first: "lower", rest: "lower" },
  path: { first: "lower", rest: "lower" },
  lower: { first: "lower", rest: "lower" },
  upper: { first: "upper", rest: "upper" },
  title: { first: "capital", rest: "capital" },
  sentence: { first: "capital", rest: "lower" },
};
type Casing = "lower" | "upper" | "capital";

const CASED = /[\p{Lu}\p{Lt}\p{Ll}]/u;

/** Any UTF-16 unit beyond ASCII. */
const NON_ASCII = /[\u0080-\uffff]/;

/** First cased letter uppercase, the rest lowercase (`2FA` → `2Fa`, `hTTP` → `Http`). */
function capitalise(word: string): string {
  const lower = word.toLowerCase();
  if (!NON_ASCII.test(lower)) {
    // ASCII: the cased letters are a-z, and uppercase is 32 codes below.
    for (let index = 0; index < lower.length; index++) {
      const code = lower.charCodeAt(index);
      if (code >= 97 && code <= 122) {
        return lower.slice(0, index) + String.fromCharCode(code - 32) + lower.slice(index + 1);
      }
    }
    return lower;
  }
  const chars = [...lower];
  const index = chars.findIndex((char) => CASED.test(char));
  if (index === -1) return chars.join("");
  chars[index] = (chars[index] as string).toUpperCase();
  return chars.join("");
}

function cased(word: string, casing: Casing): string {
  if (casing === "lower") return word.toLowerCase();
  if (casing === "upper") return word.toUpperCase();
  return capitalise(word);
}

const styleTable = [
  "| to | name | example |",
  "|---|---|---|",
  ...CASE_STYLES.map((style) => `| \`${style.id}\` | ${style.name} | \`${style.example}\` |`),
].join("\n");

export default defineOperation({
  area: "case",
  name: "convert",
  summary: "Convert a text to a case style (camelCase, snake_case, Title Case, …)",
  description: [
    "Rewrites `text` in the case style `to`: the inverse of `case/detect`, with the same styles " +
      "and the same word splitting. The text is split into words at every character that is not a " +
      "letter, mark or digit, before a capital that follows a lowercase letter or digit, and before " +
      "the last capital of an acronym followed by a lowercase letter (`parseHTTPResponse` → `parse`, " +
      "`HTTP`, `Response`); then each word is cased and the words are joined as the style says.",
    styleTable,
    "Capitalising lowercases a word and uppercases its first cased letter (`HTTP` → `Http`, `2fa` → " +
      "`2Fa`), so acronyms are not kept in camel, Pascal, Train, Title and Sentence case. Casing is " +
      "Unicode's default, not a locale's (`ß` uppercases to `SS`, `İ` lowercases to `i̇`). Words that " +
      "start with a digit join the word before them without a visible boundary in the styles " +
      "without separators (`v2`, `3d` → `v23d` in camel case). A text without letters or digits " +
      "gives an empty `result`. `case/detect` reads the result back as `to`, except a single one-letter " +
      "word in Pascal case (`A`), which it reads as upper flat case. The text must be 1 to 1000 characters.",
  ].join("\n\n"),
  input: z.object({
    text: text({
      min: 1,
      max: MAX_TEXT_CHARACTERS,
      description: "The text to convert, 1 to 1000 characters.",
    }),
    to: z.enum(STYLE_IDS).describe("The case style to write the text in."),
  }),
  output: z.object({
    result: z.string().describe("The text in the style `to`."),
    case: z.enum(STYLE_IDS).describe("The style written: `to`."),
    name: z.string().describe("The display name of the style, written in it."),
    words: z.array(z.string()).describe("The words of the text, as split (before casing)."),
  }),
  examples: [
    {
      title: "camelCase with an acronym to snake_case",
      input: { text: "parseHTTPResponse", to: "snake" },
      output: {
        result: "parse_http_response",
        case: "snake",
        name: "snake_case",
        words: ["parse", "HTTP", "Response"],
      },
    },
    {
      title: "A sentence to PascalCase",
      input: { text: "the quick brown fox", to: "pascal" },
      output: {
        result: "TheQuickBrownFox",
        case: "pascal",
        name: "PascalCase",
        words: ["the", "quick", "brown", "fox"],
      },
    },
    {
      title: "SCREAMING_SNAKE_CASE to Title Case",
      input: { text: "MAX_RETRY_COUNT", to: "title" },
      output: {
        result: "Max Retry Count",
        case: "title",
        name: "Title Case",
        words: ["MAX", "RETRY", "COUNT"],
      },
    },
  ],
  // As case/detect: splitting costs up to ~1.3 µs a UTF-16 unit; casing may lengthen a word
  // (`ß` → `SS`, up to three times in UTF-16) and the answer also lists the words.
  cost: ({ text: value }) => ({
    work: value.length * 2 * ITEM_WORK,
    bytes: 4 * jsonBytes(value) + 512,
    loc: ["text"],
  }),
  handler: ({ text: value, to }) => {
    const style = STYLES.get(to) as CaseStyle;
    const words = splitWords(value);
    const { first, rest } = LETTERS[to];
    const result = words
      .map((word, index) => cased(word, index === 0 ? first : rest))
      .join(style.separator ?? "");
    return { result, case: to, name: style.name, words };
  },
});
