import { defineOperation, ITEM_WORK, jsonBytes, text, z } from "#kit";
import {
  CASE_IDS,
  CASE_STYLES,
  type CaseId,
  FALLBACK_NAMES,
  hasLetter,
  matchingStyles,
  splitWords,
} from "./_styles.js";

/** Longest text accepted, in characters (Unicode code points). */
const MAX_TEXT_CHARACTERS = 1000;

const styleTable = [
  "| id | name | rule | example |",
  "|---|---|---|---|",
  ...CASE_STYLES.map(
    (style) => `| \`${style.id}\` | ${style.name} | ${style.rule} | \`${style.example}\` |`,
  ),
  "| `mixed` | mixed | has letters but fits none of the above | `hello_World-foo` |",
  "| `unknown` | unknown | has no letter at all | `123`, `---`, `   ` |",
].join("\n");

interface Detection {
  case: CaseId;
  name: string;
  matches: CaseId[];
  words: string[];
}

function detect(text: string): Detection {
  const words = splitWords(text);
  if (!hasLetter(text)) {
    return { case: "unknown", name: FALLBACK_NAMES.unknown, matches: ["unknown"], words };
  }
  const matching = matchingStyles(text);
  const [best] = matching;
  if (best === undefined) {
    return { case: "mixed", name: FALLBACK_NAMES.mixed, matches: ["mixed"], words };
  }
  return {
    case: best.id,
    name: best.name,
    matches: matching.map((style) => style.id),
    words,
  };
}

const caseId = z.enum(CASE_IDS);

export default defineOperation({
  area: "case",
  name: "detect",
  summary: "Detect the case style of a text (camelCase, snake_case, Title Case, …)",
  description: [
    "Tells which case style a text is written in. `matches` lists every style the text is " +
      "consistent with, in priority order, and `case` is the first of them: a single " +
      "lowercase word like `hello` fits flat, camel, snake, kebab, dot, path and lower case " +
      "at once, and is answered as `flat`. `words` is the text split into words.",
    "**Words and letters.** A word is a non-empty run of Unicode letters, combining marks " +
      "and digits; digits belong to the word they touch (`version2Update` is camel, " +
      "`v2_api` is snake). Uppercase means Unicode uppercase or titlecase letters, " +
      "lowercase means Unicode lowercase letters (`é`, `ß` and `Σ` count like ASCII); " +
      "letters without case (`你好`) break no lowercase rule. A word is capitalised when its " +
      "first cased letter is uppercase and its other letters are not.",
    "**Styles**, in priority order:",
    styleTable,
    "**Choices.** In camel and Pascal case a run of capitals is an acronym " +
      "(`parseHTTPResponse` is camel, `XMLHttpRequest` Pascal), but Title, Sentence and Train " +
      "case want capitalised words, so `NASA Launches` is `mixed`. A single capitalised word " +
      "(`Hello`) is Pascal first, then train, title and sentence; a single all-caps word " +
      "(`HELLO`) is upper flat first. The text is taken exactly as sent: a leading, trailing or " +
      "doubled separator (`_id`, `a__b`, `hello world `), a mix of separators, and any other " +
      "character (punctuation, tabs, emoji) fit no style, so such a text is `mixed` when it has " +
      "a letter and `unknown` when it has none (whitespace only, `123`, `---`).",
    "`words` splits at every character that is not a letter, mark or digit, then before a " +
      "capital that follows a lowercase letter or digit, and before the last capital of an " +
      "acronym followed by a lowercase letter (`parseHTTPResponse` → `parse`, `HTTP`, " +
      "`Response`). The text must be 1 to 1000 characters (Unicode code points); longer is a " +
      "422 `string_too_long`.",
  ].join("\n\n"),
  input: z.object({
    text: text({
      min: 1,
      max: MAX_TEXT_CHARACTERS,
      description: "The text to classify, 1 to 1000 characters.",
    }),
  }),
  output: z.object({
    case: caseId.describe("The style of the text: the first of `matches`."),
    name: z.string().describe("The display name of `case`, written in that style."),
    matches: z
      .array(caseId)
      .min(1)
      .describe("Every style the text is consistent with, in priority order, `case` first."),
    words: z.array(z.string()).describe("The words of the text, split at separators and humps."),
  }),
  examples: [
    {
      title: "camelCase, with digits inside a word",
      input: { text: "version2Update" },
      output: {
        case: "camel",
        name: "camelCase",
        matches: ["camel"],
        words: ["version2", "Update"],
      },
    },
    {
      title: "A single lowercase word fits many styles",
      input: { text: "hello" },
      output: {
        case: "flat",
        name: "flatcase",
        matches: ["flat", "camel", "snake", "kebab", "dot", "path", "lower"],
        words: ["hello"],
      },
    },
    {
      title: "SCREAMING_SNAKE_CASE",
      input: { text: "MAX_RETRY_COUNT" },
      output: {
        case: "screaming_snake",
        name: "SCREAMING_SNAKE_CASE",
        matches: ["screaming_snake"],
        words: ["MAX", "RETRY", "COUNT"],
      },
    },
    {
      title: "Separators that fit no single style",
      input: { text: "hello_World-foo" },
      output: {
        case: "mixed",
        name: "mixed",
        matches: ["mixed"],
        words: ["hello", "World", "foo"],
      },
    },
  ],
  // Splitting and matching cost up to ~1.3 µs a UTF-16 unit (combining marks before
  // capitals, measured); the answer repeats the text's words.
  cost: ({ text }) => ({
    work: text.length * 1.5 * ITEM_WORK,
    bytes: 2 * jsonBytes(text) + 512,
    loc: ["text"],
  }),
  handler: ({ text }) => detect(text),
});
