import { defineOperation, integer, text, z } from "#kit";

/** Longest text accepted, in characters (Unicode code points). */
const MAX_TEXT_CHARACTERS = 20_000;

/**
 * Work of one UTF-16 unit through the three Intl.Segmenter passes (graphemes, words,
 * sentences). ICU's dictionary word breaking of Chinese, Japanese and Thai costs up to
 * ~2.5 µs a unit (measured); ASCII text ~0.5 µs.
 */
const WORK_PER_UNIT = 3_000;
const WORK_PER_ASCII_UNIT = 600;

/** Any character outside ASCII (the cost of segmenting it is higher). */
const NOT_ASCII = /[^\p{ASCII}]/u;
/** Line terminators: CR LF as one, then LF, CR, NEL, LS, PS. */
const LINE_BREAK = /\r\n|[\n\r\u0085\u2028\u2029]/g;

interface Segmenters {
  graphemes: Intl.Segmenter;
  words: Intl.Segmenter;
  sentences: Intl.Segmenter;
}
let segmenters: Segmenters | undefined;

/** Built on first use: ICU's break iterators load their data when created. */
function segmentersOnce(): Segmenters {
  segmenters ??= {
    graphemes: new Intl.Segmenter("en", { granularity: "grapheme" }),
    words: new Intl.Segmenter("en", { granularity: "word" }),
    sentences: new Intl.Segmenter("en", { granularity: "sentence" }),
  };
  return segmenters;
}

function countLines(value: string): number {
  if (value === "") return 0;
  let breaks = 0;
  let lastEnd = 0;
  for (const match of value.matchAll(LINE_BREAK)) {
    breaks++;
    lastEnd = match.index + match[0].length;
  }
  // A final line break ends the last line; it does not start another.
  return lastEnd === value.length ? breaks : breaks + 1;
}

function statistics(value: string, wordsPerMinute: number) {
  const { graphemes, words, sentences } = segmentersOnce();
  let characters = 0;
  for (const _ of value) characters++;
  let graphemeCount = 0;
  for (const _ of graphemes.segment(value)) graphemeCount++;
  let wordCount = 0;
  for (const segment of words.segment(value)) if (segment.isWordLike) wordCount++;
  let sentenceCount = 0;
  for (const segment of sentences.segment(value))
    if (segment.segment.trim() !== "") sentenceCount++;
  const readingTimeSeconds = Math.ceil((wordCount * 60) / wordsPerMinute);
  return {
    characters,
    graphemes: graphemeCount,
    words: wordCount,
    sentences: sentenceCount,
    lines: countLines(value),
    bytes: Buffer.byteLength(value, "utf8"),
    utf16Units: value.length,
    readingTimeSeconds,
    readingTimeMinutes: Math.ceil(readingTimeSeconds / 60),
    wordsPerMinute,
  };
}

const count = (description: string) => z.int().min(0).describe(description);

export default defineOperation({
  area: "text",
  name: "statistics",
  summary: "Count characters, graphemes, words, sentences, lines and bytes; reading time",
  description: [
    "Counts a text several ways. `characters` are Unicode code points (an emoji is one, a family " +
      "emoji of four people joined by zero-width joiners is seven); `graphemes` are user-perceived " +
      "characters (extended grapheme clusters, Unicode UAX #29, as `Intl.Segmenter` finds them: that " +
      "family is one, `e` with a combining accent is one); `utf16Units` is JavaScript's `length`; " +
      "`bytes` is the size in UTF-8.",
    "`words` are the word-like segments of UAX #29 word breaking (ICU, with its dictionaries for " +
      "Chinese, Japanese and Thai, which have no spaces); punctuation and spaces are not words, `don't` " +
      "and `3.14` are one word each. `sentences` are the non-blank segments of UAX #29 sentence " +
      "breaking. `lines` counts lines separated by CR LF, LF, CR, NEL, LS or PS; a final line break " +
      "does not start another line, and the empty text has 0 lines.",
    "`readingTimeSeconds` is `words × 60 / wordsPerMinute` rounded up (`wordsPerMinute` default " +
      "200, a common figure for silent reading of English), `readingTimeMinutes` that rounded up to " +
      "whole minutes. The text may be empty and at most 20,000 characters; Intl's word breaking " +
      "costs up to ~3 µs a character for scripts without spaces, so the request budget refuses " +
      "(422) a non-ASCII text of more than about 6,600 UTF-16 units by default, an ASCII text never.",
  ].join("\n\n"),
  input: z.object({
    text: text({ max: MAX_TEXT_CHARACTERS, description: "The text to measure; may be empty." }),
    wordsPerMinute: integer({
      min: 1,
      max: 2000,
      description: "Reading speed for the reading time (default 200).",
    }).default(200),
  }),
  output: z.object({
    characters: count("Unicode code points."),
    graphemes: count("User-perceived characters (extended grapheme clusters)."),
    words: count("Word-like segments (UAX #29)."),
    sentences: count("Non-blank sentence segments (UAX #29)."),
    lines: count("Lines; a final line break does not start another."),
    bytes: count("Bytes of the UTF-8 encoding."),
    utf16Units: count("UTF-16 code units (JavaScript's `length`)."),
    readingTimeSeconds: count("Reading time in seconds, rounded up."),
    readingTimeMinutes: count("Reading time in whole minutes, rounded up."),
    wordsPerMinute: z.int().describe("The reading speed used."),
  }),
  examples: [
    {
      title: "A short paragraph",
      input: { text: "Hello, world! This is a test.\nIt has two lines." },
      output: {
        characters: 47,
        graphemes: 47,
        words: 10,
        sentences: 3,
        lines: 2,
        bytes: 47,
        utf16Units: 47,
        readingTimeSeconds: 3,
        readingTimeMinutes: 1,
        wordsPerMinute: 200,
      },
    },
    {
      title: "Emoji and accents: code points, graphemes and bytes differ",
      input: { text: "👨‍👩‍👧 café" },
      output: {
        characters: 10,
        graphemes: 6,
        words: 1,
        sentences: 1,
        lines: 1,
        bytes: 24,
        utf16Units: 13,
        readingTimeSeconds: 1,
        readingTimeMinutes: 1,
        wordsPerMinute: 200,
      },
    },
  ],
  cost: ({ text: value }) => ({
    work: value.length * (NOT_ASCII.test(value) ? WORK_PER_UNIT : WORK_PER_ASCII_UNIT),
    bytes: 512,
    loc: ["text"],
  }),
  handler: ({ text: value, wordsPerMinute }) => statistics(value, wordsPerMinute),
});
