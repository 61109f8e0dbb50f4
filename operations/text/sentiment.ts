import { defineOperation, ITEM_WORK, text, z } from "#kit";
import {
  type Lexicon,
  type LexiconEntry,
  lexicon,
  lexiconKey,
  NEGATION_WINDOW,
  NEGATORS,
  type Token,
  tokenize,
} from "./_lexicon.js";

/** Longest text accepted, in characters (Unicode code points). */
const MAX_TEXT_CHARACTERS = 10_000;

/** One word or phrase of the text found in the list, in text order. */
interface ScoredWord {
  word: string;
  valence: number;
  score: number;
  negated: boolean;
}

/** A list entry found in the text, starting at token `start`. */
interface EntryMatch {
  start: number;
  entry: LexiconEntry;
}

/** The longest list entry starting at token `start` whose tokens share one clause. */
function longestEntryAt(
  words: Lexicon,
  tokens: readonly Token[],
  start: number,
): LexiconEntry | undefined {
  const first = tokens[start];
  if (first === undefined) return undefined;
  const clause = first.clause;
  const longest = words.phraseStarts.has(first.text.replaceAll("'", "")) ? words.longestEntry : 1;
  for (let length = Math.min(longest, tokens.length - start); length >= 1; length -= 1) {
    const run = tokens.slice(start, start + length);
    if (run.some((token) => token.clause !== clause)) continue;
    const entry = words.entries.get(lexiconKey(run.map((token) => token.text)));
    if (entry) return entry;
  }
  return undefined;
}

/** Walks the tokens left to right, taking the longest entry at each place. */
function findEntries(tokens: readonly Token[]): EntryMatch[] {
  const words = lexicon();
  const matches: EntryMatch[] = [];
  let position = 0;
  while (position < tokens.length) {
    const entry = longestEntryAt(words, tokens, position);
    if (entry) {
      matches.push({ start: position, entry });
      position += entry.length;
    } else {
      position += 1;
    }
  }
  return matches;
}

/**
 * The index of the nearest negator among the {@link NEGATION_WINDOW} tokens before
 * `start`, in the same clause, that is not a word of a matched phrase.
 */
function negatorBefore(
  tokens: readonly Token[],
  start: number,
  inPhrase: readonly boolean[],
): number | undefined {
  const clause = tokens[start]?.clause;
  for (let index = start - 1; index >= Math.max(0, start - NEGATION_WINDOW); index -= 1) {
    const token = tokens[index];
    if (token === undefined || token.clause !== clause) break;
    if (!inPhrase[index] && NEGATORS.has(token.text)) return index;
  }
  return undefined;
}

function analyse(text: string) {
  const tokens = tokenize(text);
  const matches = findEntries(tokens);
  const inPhrase = tokens.map(() => false);
  for (const { start, entry } of matches) {
    if (entry.length > 1) inPhrase.fill(true, start, start + entry.length);
  }
  const negators = matches.map(({ start }) => negatorBefore(tokens, start, inPhrase));
  // A negator that flips a word spends its meaning there: `no problem` is +2, not +2 − 1.
  const spentNegators = new Set(negators.filter((index) => index !== undefined));
  const words: ScoredWord[] = [];
  for (const [index, { start, entry }] of matches.entries()) {
    if (entry.length === 1 && spentNegators.has(start)) continue;
    const negated = negators[index] !== undefined;
    // `0 - valence`, not `-valence`: a negated 0 must stay 0, never −0.
    const score = negated ? 0 - entry.valence : entry.valence;
    words.push({ word: entry.entry, valence: entry.valence, score, negated });
  }
  const score = words.reduce((total, word) => total + word.score, 0);
  return {
    score,
    comparative: tokens.length === 0 ? 0 : score / tokens.length,
    label: score > 0 ? "positive" : score < 0 ? "negative" : "neutral",
    positive: words.filter((w) => w.score > 0).map((w) => w.word),
    negative: words.filter((w) => w.score < 0).map((w) => w.word),
    tokens: tokens.length,
    words,
  } as const;
}

export default defineOperation({
  area: "text",
  name: "sentiment",
  summary: "Sentiment of an English text, by the AFINN-165 word list",
  description: [
    "Scores an English text with the [AFINN-165](https://github.com/fnielsen/afinn) word list " +
      "(3,382 entries rated from −5 to +5, as published in the `afinn-165` package). " +
      "`score` is the sum of the valences of the words and phrases found; `comparative` is " +
      "`score` divided by the number of tokens (0 when the text has no tokens); `label` is " +
      "`positive` above 0, `negative` below 0 and `neutral` at 0.",
    "**Tokens.** The text is put in Unicode NFC and lowercased; a token is a run of Unicode " +
      "letters, combining marks and digits, with apostrophes allowed inside it (`don't`; " +
      "`’` counts as `'`). Spaces, hyphens, other punctuation, symbols and emoji separate " +
      "tokens; the clause punctuation `. , ; : ! ? …` (and its full-width forms) also ends " +
      "a clause. A text without any token, like `!!!`, has `tokens` 0, `comparative` 0 and " +
      "is neutral.",
    "**Phrases.** Multi-word entries (`does not work`, `cool stuff`, `no fun`) and hyphenated " +
      "ones (`well-being`, `short-sighted`, matched with a hyphen or a space) are found as " +
      "token sequences inside one clause, longest first, and their words are then not scored " +
      "again: `not good` is the list's −2, `kind of` is the list's 0. Inside a phrase " +
      "apostrophes are ignored, so `don't like` matches the entry `dont like`.",
    "**Negation.** A word or phrase preceded, within the 3 tokens before it and in the same " +
      "clause, by a negator has its valence flipped: `not bad` scores +3 and `I don't really " +
      "like it` −2. Negators: not, no, never, nor, neither, none, nobody, nothing, nowhere, " +
      "without, cannot, and can't, don't, doesn't, didn't, isn't, aren't, wasn't, weren't, " +
      "won't, wouldn't, shouldn't, couldn't, haven't, hasn't, hadn't, mustn't, needn't, " +
      "ain't, each with or without its apostrophe. A negator that is part of a matched phrase " +
      "negates nothing, and one that flips a word is not scored itself (`no problem` is +2; " +
      "`no` alone is −1).",
    "**Output.** `positive` and `negative` list the entries that scored, in text order, as " +
      "they scored after negation (a negated positive word is in `negative`); repeated words " +
      "are repeated. `words` gives each entry found with its list `valence`, its `score` and " +
      "whether it was `negated` (0-valence entries appear there only). `tokens` is the token " +
      "count. The text must be 1 to 10,000 characters (Unicode code points); longer is a 422 " +
      "`string_too_long`. Word lists are blunt: sarcasm, context and most multi-word idioms " +
      "are beyond them.",
  ].join("\n\n"),
  input: z.object({
    text: text({
      min: 1,
      max: MAX_TEXT_CHARACTERS,
      description: "The English text to score, 1 to 10,000 characters.",
    }),
  }),
  output: z.object({
    score: z.int().describe("Sum of the valences of the entries found, after negation."),
    comparative: z.number().describe("`score` divided by `tokens`; 0 when there are no tokens."),
    label: z
      .enum(["positive", "negative", "neutral"])
      .describe("`positive` when score > 0, `negative` when score < 0, else `neutral`."),
    positive: z
      .array(z.string())
      .describe("Entries that scored above 0 after negation, in text order."),
    negative: z
      .array(z.string())
      .describe("Entries that scored below 0 after negation, in text order."),
    tokens: z.int().describe("How many tokens (words) the text has."),
    words: z
      .array(
        z.object({
          word: z.string().describe("The AFINN-165 entry, as the list spells it."),
          valence: z.int().describe("Its valence in the list, −5 to +5."),
          score: z.int().describe("What it added to `score`: the valence, flipped if negated."),
          negated: z.boolean().describe("Whether a negator before it flipped its valence."),
        }),
      )
      .describe("Every list entry found in the text, in text order."),
  }),
  examples: [
    {
      title: "A plainly positive sentence",
      input: { text: "I love this" },
      output: {
        score: 3,
        comparative: 1,
        label: "positive",
        positive: ["love"],
        negative: [],
        tokens: 3,
        words: [{ word: "love", valence: 3, score: 3, negated: false }],
      },
    },
    {
      title: "Negation flips a word: not bad is positive",
      input: { text: "This is not bad" },
      output: {
        score: 3,
        comparative: 0.75,
        label: "positive",
        positive: ["bad"],
        negative: [],
        tokens: 4,
        words: [{ word: "bad", valence: -3, score: 3, negated: true }],
      },
    },
    {
      title: "Phrases of the list score as a whole",
      input: { text: "The app does not work. Not good!" },
      output: {
        score: -5,
        comparative: -0.7142857142857143,
        label: "negative",
        positive: [],
        negative: ["does not work", "not good"],
        tokens: 7,
        words: [
          { word: "does not work", valence: -3, score: -3, negated: false },
          { word: "not good", valence: -2, score: -2, negated: false },
        ],
      },
    },
  ],
  // Under half a microsecond per character. Tokens are at most about half the characters
  // (NFC can lengthen a text a little), each answered in at most about 110 bytes.
  cost: ({ text }) => ({
    work: text.length * 0.4 * ITEM_WORK,
    bytes: text.length * 165 + 256,
    loc: ["text"],
  }),
  handler: ({ text }) => analyse(text),
});
