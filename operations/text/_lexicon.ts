/**
 * The AFINN-165 word list prepared for look-ups, and the tokeniser the sentiment
 * operation and the list share: an entry is tokenised exactly like the text it is
 * matched against, so `well-being` in the list and `well-being` in a text meet.
 */
import { createRequire } from "node:module";

/** One word of a text, lowercased, with the clause it belongs to. */
export interface Token {
  /** The word: NFC, lowercased, typographic apostrophes turned into `'`. */
  text: string;
  /** Counts clause punctuation seen before the word; negation never reaches across it. */
  clause: number;
}

/**
 * A word is a run of Unicode letters, combining marks and digits, possibly with
 * apostrophes inside it (`don't`, `rock'n'roll`); an apostrophe at either end is not
 * part of the word. Everything else (spaces, hyphens, symbols, emoji) separates words.
 * The second alternative finds clause punctuation.
 */
const WORD_OR_CLAUSE_BREAK =
  /([\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}\p{N}]+)*)|([.,;:!?…¡¿。、，；：！？])/gu;

/** Right single quotation mark, left one and the modifier-letter apostrophe all mean `'`. */
const TYPOGRAPHIC_APOSTROPHES = /[\u2018\u2019\u02BC]/g;

/**
 * Splits a text into lowercase word tokens (see {@link WORD_OR_CLAUSE_BREAK} for what a
 * word is), numbering clauses so that negation can stop at punctuation.
 *
 * @example
 * tokenize("Not BAD, really!").map((t) => [t.text, t.clause]);
 * // [["not", 0], ["bad", 0], ["really", 1]]
 */
export function tokenize(text: string): Token[] {
  const normalised = text.normalize("NFC").toLowerCase().replace(TYPOGRAPHIC_APOSTROPHES, "'");
  const tokens: Token[] = [];
  let clause = 0;
  for (const [, word, clauseBreak] of normalised.matchAll(WORD_OR_CLAUSE_BREAK)) {
    if (clauseBreak !== undefined) clause += 1;
    else if (word !== undefined) tokens.push({ text: word, clause });
  }
  return tokens;
}

/**
 * The look-up key of a run of tokens. A single word is looked up as it is; inside a
 * phrase apostrophes are dropped, so the list's `dont like` also matches `don't like`
 * and its `can't stand` also matches `cant stand`. (Single words keep their apostrophe
 * on purpose: `i'll` must not become the list's `ill`.)
 *
 * @example
 * lexiconKey(["don't", "like"]); // "dont like"
 * lexiconKey(["i'll"]); // "i'll"
 */
export function lexiconKey(words: readonly string[]): string {
  return words.length === 1 ? (words[0] ?? "") : words.map((w) => w.replaceAll("'", "")).join(" ");
}

/** One entry of the word list. */
export interface LexiconEntry {
  /** The entry as AFINN-165 spells it: `good`, `does not work`, `well-being`. */
  entry: string;
  /** Its valence, an integer from −5 to +5. */
  valence: number;
  /** How many tokens it spans (`does not work`: 3, `well-being`: 2). */
  length: number;
}

/** The word list prepared for look-ups. */
export interface Lexicon {
  /** AFINN-165 keyed by {@link lexiconKey}. */
  entries: ReadonlyMap<string, LexiconEntry>;
  /**
   * The first words of the entries that span several tokens, as {@link lexiconKey} writes
   * them inside a phrase: a token not in here starts no phrase, and only its own word is
   * looked up.
   */
  phraseStarts: ReadonlySet<string>;
  /** The most tokens any entry spans: how far ahead a phrase match has to look. */
  longestEntry: number;
}

let built: Lexicon | undefined;

/**
 * The word list, built on the first call, not at start: it holds about 0.8 MB of heap that
 * a process never asked for a sentiment should not keep. `require` of an ES module is
 * synchronous on Node 22.12+ and 24, so the handler stays synchronous.
 */
export function lexicon(): Lexicon {
  if (built) return built;
  const { afinn165 } = createRequire(import.meta.url)("afinn-165") as {
    afinn165: Record<string, number>;
  };
  const entries = new Map<string, LexiconEntry>();
  for (const [entry, valence] of Object.entries(afinn165)) {
    const words = tokenize(entry).map((token) => token.text);
    entries.set(lexiconKey(words), { entry, valence, length: words.length });
  }
  built = {
    entries,
    phraseStarts: new Set(
      [...entries.keys()].filter((key) => key.includes(" ")).map((key) => key.split(" ")[0] ?? ""),
    ),
    longestEntry: Math.max(...[...entries.values()].map((e) => e.length)),
  };
  return built;
}

/** Whether the word list has been built yet (for the test that importing does not build it). */
export const lexiconBuilt = () => built !== undefined;

/**
 * Words that flip the valence of a scored word or phrase up to
 * {@link NEGATION_WINDOW} tokens after them in the same clause. Contractions are
 * listed with and without their apostrophe, as people type both.
 */
export const NEGATORS: ReadonlySet<string> = new Set([
  "not",
  "no",
  "never",
  "nor",
  "neither",
  "none",
  "nobody",
  "nothing",
  "nowhere",
  "without",
  "cannot",
  ...[
    "can't",
    "don't",
    "doesn't",
    "didn't",
    "isn't",
    "aren't",
    "wasn't",
    "weren't",
    "won't",
    "wouldn't",
    "shouldn't",
    "couldn't",
    "haven't",
    "hasn't",
    "hadn't",
    "mustn't",
    "needn't",
    "ain't",
  ].flatMap((contraction) => [contraction, contraction.replace("'", "")]),
]);

/** A negator reaches the scored words among the next this many tokens. */
export const NEGATION_WINDOW = 3;
