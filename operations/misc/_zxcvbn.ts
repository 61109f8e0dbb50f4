/**
 * zxcvbn (`@zxcvbn-ts/core`) for `misc/password-strength`, with two of its costs removed and
 * its results kept. Its dictionary matchers slice every substring of up to 23 characters and
 * look it up in each of 20 hash tables (14 MB of them); the ones here walk each start
 * position down one sorted array of all the words, narrowing the range a character at a
 * time and stopping where no word continues, and find the same matches in the same order
 * (Levenshtein matching, off by default, and user inputs are not supported). Its scoring
 * estimated each match again for every sequence it might end; the one here estimates once.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import type { OptionsType, ZxcvbnResult } from "@zxcvbn-ts/core";

type WordList = readonly (string | number)[];

/** A dictionary match, as the built-in matcher makes it. */
interface DictionaryMatch {
  pattern: "dictionary";
  i: number;
  j: number;
  token: string;
  matchedWord: string;
  rank: number;
  dictionaryName: string;
  reversed: boolean;
  l33t: boolean;
}

/** The arrays a `WordIndex` is made of, built from lists or read from bytes. */
interface IndexParts {
  names: string[];
  text: string;
  starts: Int32Array;
  entryStarts: Int32Array;
  lists: Uint8Array;
  ranks: Int32Array;
}

/**
 * The layout `toBytes` writes, and what `build` makes: bump it when either changes. A file of
 * another format is ignored (and the index built).
 */
const FORMAT = 1;
/** Typed arrays are written in the machine's byte order, so the order is part of the stamp. */
const BYTE_ORDER = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? "le" : "be";

/** Byte length of a typed-array section, padded so that the next one is 4-byte aligned. */
const padded = (bytes: number) => (bytes + 3) & ~3;

/** The index's arrays for `dictionaries`. */
function build(dictionaries: Readonly<Record<string, WordList>>): IndexParts {
  const names = Object.keys(dictionaries);
  if (names.length > 255) throw new Error("at most 255 word lists");
  // As the built-in `buildRankedDictionary`: rank from 1, a repeated word keeps its last
  // rank. Entries are chained per word (`first`, `next`) to keep the build's peak small.
  let total = 0;
  for (const name of names) total += dictionaries[name]?.length ?? 0;
  const entryList = new Uint8Array(total);
  const entryRank = new Int32Array(total);
  const next = new Int32Array(total).fill(-1);
  const first = new Map<string, number>();
  const lastOf = new Map<string, number>();
  let count = 0;
  names.forEach((name, list) => {
    const words = dictionaries[name] ?? [];
    for (let r = 0; r < words.length; r += 1) {
      const word = String(words[r]);
      if (word === "") continue;
      const last = lastOf.get(word);
      if (last !== undefined && entryList[last] === list) {
        entryRank[last] = r + 1;
        continue;
      }
      entryList[count] = list;
      entryRank[count] = r + 1;
      if (last === undefined) first.set(word, count);
      else next[last] = count;
      lastOf.set(word, count);
      count += 1;
    }
  });
  lastOf.clear();
  const words = [...first.keys()].sort();
  const text = words.join("");
  const starts = new Int32Array(words.length + 1);
  const entryStarts = new Int32Array(words.length + 1);
  const lists = new Uint8Array(count);
  const ranks = new Int32Array(count);
  let start = 0;
  let e = 0;
  for (let w = 0; w < words.length; w += 1) {
    const word = words[w] as string;
    starts[w] = start;
    entryStarts[w] = e;
    start += word.length;
    for (let k = first.get(word) as number; k !== -1; k = next[k] as number) {
      lists[e] = entryList[k] as number;
      ranks[e] = entryRank[k] as number;
      e += 1;
    }
  }
  starts[words.length] = start;
  entryStarts[words.length] = e;
  return { names, text, starts, entryStarts, lists, ranks };
}

/** The words of several ranked lists, sorted, with each word's rank in each list. */
export class WordIndex {
  private readonly names: string[];
  /** The distinct words, sorted by UTF-16 code units and concatenated. */
  private readonly text: string;
  /** Word `w` is `text.slice(starts[w], starts[w + 1])`. */
  private readonly starts: Int32Array;
  /** Word `w`'s lists and ranks are `lists[e]`, `ranks[e]` for e in entryStarts[w]..[w + 1]. */
  private readonly entryStarts: Int32Array;
  private readonly lists: Uint8Array;
  private readonly ranks: Int32Array;
  /** Characters compared so far, so that tests can bound a check's work. */
  probes = 0;

  /** `parts`: the arrays already made (by `fromBytes`), else built from `dictionaries`. */
  constructor(dictionaries: Readonly<Record<string, WordList>>, parts = build(dictionaries)) {
    this.names = parts.names;
    this.text = parts.text;
    this.starts = parts.starts;
    this.entryStarts = parts.entryStarts;
    this.lists = parts.lists;
    this.ranks = parts.ranks;
  }

  /**
   * The index as bytes for `fromBytes`: a length-prefixed JSON header (format, `stamp`, list
   * names, sizes), then the text as UTF-16LE (its code units as they are) and the arrays as
   * they are in memory.
   */
  toBytes(stamp: string): Uint8Array {
    const text = Buffer.from(this.text, "utf16le");
    const header = Buffer.from(
      JSON.stringify({
        format: FORMAT,
        stamp: `${stamp} ${BYTE_ORDER}`,
        names: this.names,
        text: text.length,
        words: this.size,
        entries: this.lists.length,
      }),
    );
    const arrays = [this.starts, this.entryStarts, this.ranks, this.lists];
    let length = padded(4 + header.length) + padded(text.length);
    for (const array of arrays) length += array.byteLength;
    const bytes = new Uint8Array(length);
    new DataView(bytes.buffer).setUint32(0, header.length, true);
    bytes.set(header, 4);
    let at = padded(4 + header.length);
    bytes.set(text, at);
    at += padded(text.length);
    for (const array of arrays) {
      bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
      at += array.byteLength;
    }
    return bytes;
  }

  /**
   * The index `toBytes(stamp)` wrote, or undefined when `bytes` were written with another
   * stamp or format, or do not add up (truncated): the caller then builds it from the lists.
   */
  static fromBytes(bytes: Uint8Array, stamp: string): WordIndex | undefined {
    if (bytes.length < 4) return undefined;
    const headerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
    let header: {
      format?: unknown;
      stamp?: unknown;
      names: string[];
      text: number;
      words: number;
      entries: number;
    };
    try {
      header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 4, headerLength).toString());
    } catch {
      return undefined;
    }
    if (header.format !== FORMAT || header.stamp !== `${stamp} ${BYTE_ORDER}`) return undefined;
    const { words, entries } = header;
    const sizes = [header.text, words, entries];
    if (!sizes.every((size) => Number.isSafeInteger(size) && size >= 0)) return undefined;
    let at = padded(4 + headerLength);
    const textAt = at;
    at += padded(header.text);
    if (at + 4 * (2 * (words + 1) + entries) + entries !== bytes.length) return undefined;
    // Copied out, so that views into the file's buffer do not keep it alive.
    const int32s = (count: number) => {
      const array = new Int32Array(count);
      new Uint8Array(array.buffer).set(bytes.subarray(at, at + array.byteLength));
      at += array.byteLength;
      return array;
    };
    const text = Buffer.from(bytes.buffer, bytes.byteOffset + textAt, header.text).toString(
      "utf16le",
    );
    const starts = int32s(words + 1);
    const entryStarts = int32s(words + 1);
    const ranks = int32s(entries);
    const lists = bytes.slice(at, at + entries);
    if (starts[words] !== text.length || entryStarts[words] !== entries) return undefined;
    return new WordIndex({}, { names: header.names, text, starts, entryStarts, lists, ranks });
  }

  /** The word count. */
  get size(): number {
    return this.starts.length - 1;
  }

  /** Word `w` (0 to size - 1) and its rank in each list it is in, for tests. */
  word(w: number): { word: string; ranks: Record<string, number> } {
    const ranks: Record<string, number> = {};
    for (let e = this.entryStarts[w] as number; e < (this.entryStarts[w + 1] as number); e += 1) {
      ranks[this.names[this.lists[e] as number] as string] = this.ranks[e] as number;
    }
    return { word: this.text.slice(this.starts[w], this.starts[w + 1]), ranks };
  }

  /**
   * Every substring of `password` that is a word (compared lower-cased), ordered by start,
   * then end, then list: what the built-in dictionary matcher returns.
   */
  match(password: string): DictionaryMatch[] {
    const matches: DictionaryMatch[] = [];
    const length = password.length;
    const lower = password.toLowerCase();
    const { text, starts, entryStarts } = this;
    for (let i = 0; i < length; i += 1) {
      // Words in [lo, hi) all begin with lower[i, i + k); the one equal to it sorts first.
      let lo = 0;
      let hi = starts.length - 1;
      for (let k = 0; i + k < length; k += 1) {
        if ((starts[lo + 1] as number) - (starts[lo] as number) === k) lo += 1;
        const c = lower.charCodeAt(i + k);
        let a = lo;
        let b = hi;
        while (a < b) {
          const m = (a + b) >>> 1;
          this.probes += 1;
          if (text.charCodeAt((starts[m] as number) + k) < c) a = m + 1;
          else b = m;
        }
        lo = a;
        b = hi;
        while (a < b) {
          const m = (a + b) >>> 1;
          this.probes += 1;
          if (text.charCodeAt((starts[m] as number) + k) <= c) a = m + 1;
          else b = m;
        }
        hi = a;
        if (lo >= hi) break;
        if ((starts[lo + 1] as number) - (starts[lo] as number) === k + 1) {
          for (let e = entryStarts[lo] as number; e < (entryStarts[lo + 1] as number); e += 1) {
            matches.push({
              pattern: "dictionary",
              i,
              j: i + k,
              token: password.slice(i, i + k + 1),
              matchedWord: lower.slice(i, i + k + 1),
              rank: this.ranks[e] as number,
              dictionaryName: this.names[this.lists[e] as number] as string,
              reversed: false,
              l33t: false,
            });
          }
        }
      }
    }
    return matches;
  }
}

interface L33tChange {
  i: number;
  letter: string;
  substitution: string;
}
interface SubbedPassword {
  password: string;
  changes: L33tChange[];
  isFullSubstitution: boolean;
}
interface MatcherOptions {
  l33tMaxSubstitutions: number;
  trieNodeRoot: unknown;
}
type GetCleanPasswords = (password: string, limit: number, trieRoot: unknown) => SubbedPassword[];

/** The built-in l33t matcher's `getExtras`: the match's span and substitutions in the original. */
function l33tExtras(subbed: SubbedPassword, i: number, j: number) {
  let iUnsubbed = i;
  let jUnsubbed = j;
  const subs: { letter: string; substitution: string }[] = [];
  const subDisplay: string[] = [];
  const seen = new Set<string>();
  for (const change of subbed.changes) {
    if (change.i < i) {
      const diff = change.substitution.length - change.letter.length;
      iUnsubbed += diff;
      jUnsubbed += diff;
    } else if (change.i <= j) {
      jUnsubbed += change.substitution.length - change.letter.length;
      const key = `${change.letter}-${change.substitution}`;
      if (!seen.has(key)) {
        seen.add(key);
        subs.push({ letter: change.letter, substitution: change.substitution });
        subDisplay.push(`${change.substitution} -> ${change.letter}`);
      }
    }
  }
  return { i: iUnsubbed, j: jUnsubbed, subs, subDisplay: subDisplay.join(", ") };
}

/** The built-in l33t matcher over `index`: dictionary matches of the unmunged variants. */
function l33tMatches(
  index: WordIndex,
  password: string,
  options: MatcherOptions,
  getCleanPasswords: GetCleanPasswords,
) {
  const matches: DictionaryMatch[] = [];
  const included = new Set<string>();
  let hasFullMatch = false;
  for (const subbed of getCleanPasswords(
    password,
    options.l33tMaxSubstitutions,
    options.trieNodeRoot,
  )) {
    if (hasFullMatch) break;
    for (const match of index.match(subbed.password)) {
      const extras = l33tExtras(subbed, match.i, match.j);
      if (!hasFullMatch) hasFullMatch = extras.i === 0 && extras.j === password.length - 1;
      const token = password.slice(extras.i, extras.j + 1);
      const key = `${extras.i},${extras.j},${match.dictionaryName},${match.matchedWord}`;
      // Only matches with an actual substitution, each span, list and word once.
      if (token.toLowerCase() !== match.matchedWord && !included.has(key)) {
        included.add(key);
        matches.push({ ...match, l33t: true, token, ...extras });
      }
    }
  }
  // Single-character l33t matches ('4' for 'a') are noise, as the built-in matcher says.
  return matches.filter((match) => match.token.length > 1);
}

/** The built-in reverse matcher over `index`. */
function reverseMatches(index: WordIndex, password: string) {
  const last = password.length - 1;
  return index.match(password.split("").reverse().join("")).map((match) => ({
    ...match,
    token: match.token.split("").reverse().join(""),
    reversed: true,
    i: last - match.j,
    j: last - match.i,
  }));
}

interface Checker {
  check(password: string): ZxcvbnResult;
}
/** The factory's internals that `Factory` below builds on. */
interface FactoryBase extends Checker {
  readonly options: unknown;
  scoring: { mostGuessableMatchSequence(password: string, matches: Match[]): unknown };
}
interface Match {
  pattern: string;
  i: number;
  j: number;
  token: string;
  guesses: number;
  guessesLog10?: number;
}
type Estimate = (options: unknown, match: object, password: string) => Match;

/**
 * The built-in `Scoring.mostGuessableMatchSequence` (its dynamic programme, ties and order
 * kept), minus its repeated work: it estimated a match anew, as a copy, for every sequence
 * it might end, and every bruteforce span for every sequence before it; here each match and
 * span is estimated once, and the per-length tables are arrays, not objects keyed by strings.
 */
function mostGuessable(estimate: Estimate, log10: (n: number) => number, growth: number) {
  return (options: unknown, password: string, matches: Match[]) => {
    const n = password.length;
    const byEnd: Match[][] = [];
    // best[k][l]: last match of the best l-match sequence covering password[0..k];
    // product[k][l] its guesses' product, total[k][l] the minimised function.
    const best: Match[][] = [];
    const product: number[][] = [];
    const total: number[][] = [];
    for (let k = 0; k < n; k += 1) {
      byEnd.push([]);
      best.push([]);
      product.push([]);
      total.push([]);
    }
    // A keyboard run's estimate walks the whole keyboard graph, yet depends only on these
    // fields (and on whether it spans the password, which its length tells): once per key.
    const spatial = new Map<string, Match>();
    for (const match of matches) {
      let estimated: Match;
      if (match.pattern === "spatial") {
        const { graph, turns, shiftedCount } = match as Match & Record<string, unknown>;
        const key = `${graph} ${match.token.length} ${turns} ${shiftedCount}`;
        const known = spatial.get(key);
        if (known === undefined) {
          estimated = estimate(options, match, password);
          spatial.set(key, estimated);
        } else {
          estimated = { ...match, guesses: known.guesses, guessesLog10: known.guessesLog10 };
        }
      } else {
        estimated = estimate(options, match, password);
      }
      byEnd[match.j]?.push(estimated);
    }
    for (const list of byEnd) list.sort((m1, m2) => m1.i - m2.i);
    /** Records an l-match sequence ending at match (i..k) if it beats the ones there. */
    const better = (i: number, k: number, guesses: number, length: number) => {
      let pi = guesses;
      if (length > 1) pi *= (product[i - 1] as number[])[length - 1] as number;
      let factorial = 1;
      for (let f = 2; f <= length; f += 1) factorial *= f;
      const g = factorial * pi + growth ** (length - 1);
      const competing = total[k] as number[];
      for (let l = 1; l <= length && l < competing.length; l += 1) {
        const c = competing[l];
        if (c !== undefined && c <= g) return false;
      }
      competing[length] = g;
      (product[k] as number[])[length] = pi;
      return true;
    };
    const update = (match: Match, length: number) => {
      if (better(match.i, match.j, match.guesses, length)) {
        (best[match.j] as Match[])[length] = match;
      }
    };
    // A bruteforce span's guesses depend on its length alone (and on whether it is the
    // whole password, which its length tells): estimated once per length.
    const spanGuesses: number[] = [];
    const span = (i: number, j: number) =>
      estimate(options, { pattern: "bruteforce", token: password.slice(i, j + 1), i, j }, password);
    const spanUpdate = (i: number, k: number, length: number, made: Match | undefined) => {
      let guesses = spanGuesses[k - i + 1];
      if (guesses === undefined) {
        made ??= span(i, k);
        guesses = made.guesses;
        spanGuesses[k - i + 1] = guesses;
      }
      if (!better(i, k, guesses, length)) return made;
      made ??= span(i, k);
      (best[k] as Match[])[length] = made;
      return made;
    };
    for (let k = 0; k < n; k += 1) {
      for (const match of byEnd[k] as Match[]) {
        if (match.i > 0) {
          const before = best[match.i - 1] as Match[];
          for (let l = 1; l < before.length; l += 1) {
            if (before[l] !== undefined) update(match, l + 1);
          }
        } else {
          update(match, 1);
        }
      }
      spanUpdate(0, k, 1, undefined);
      for (let i = 1; i <= k; i += 1) {
        const before = best[i - 1] as Match[];
        let made: Match | undefined;
        for (let l = 1; l < before.length; l += 1) {
          // Two adjacent bruteforce spans are never better than one.
          if (before[l] !== undefined && before[l]?.pattern !== "bruteforce") {
            made = spanUpdate(i, k, l + 1, made);
          }
        }
      }
    }
    let k = n - 1;
    let length = 0;
    let g = Number.POSITIVE_INFINITY;
    const last = total[k] ?? [];
    for (let l = 1; l < last.length; l += 1) {
      const c = last[l];
      if (c !== undefined && c < g) {
        length = l;
        g = c;
      }
    }
    const sequence: Match[] = [];
    while (k >= 0) {
      const match = (best[k] as Match[])[length] as Match;
      sequence.unshift(match);
      k = match.i - 1;
      length -= 1;
    }
    const guesses = n === 0 ? 1 : ((total[n - 1] as number[])[sequence.length] as number);
    return { password, guesses, guessesLog10: log10(guesses), sequence };
  };
}
interface MatchOptions {
  password: string;
}
type MatcherClass = new (options: MatcherOptions) => { match(options: MatchOptions): unknown[] };
interface CustomMatcher {
  Matching: MatcherClass;
  feedback: (...args: unknown[]) => unknown;
  scoring: (...args: unknown[]) => unknown;
}

/** The built-in word-sequence matcher runs its own dictionary matchers over these lists. */
const WORD_SEQUENCE_NAMES = [
  "cardinalNumbers",
  "ordinalNumbers",
  "daysOfWeek",
  "months",
  "seasons",
  "timePeriods",
  "rainbowColors",
  "directions",
  "intermediateDirections",
  "sizeProgression",
  "militaryAlphabet",
  "planets",
  "zodiacSigns",
  "chineseZodiac",
];
const isWordSequence = (name: string) =>
  WORD_SEQUENCE_NAMES.some((sequence) => name === sequence || name.startsWith(`${sequence}-`));

/** Where `_zxcvbn.prebuild.ts` writes the index (dist/ only: built in-process elsewhere). */
export const WORDS_FILE = fileURLToPath(new URL("./_zxcvbn-words.bin.br", import.meta.url));

/** Larger than any index file can decompress to: a corrupt one cannot ask for more. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/**
 * An index's bytes as its file holds them: Brotli, a third of the size, since the image
 * carries the file. Quality 7: the highest saves little more and slows every build.
 */
export function packWordIndex(bytes: Uint8Array): Buffer {
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 7,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

/** The packages the index is made from, with their versions: a file stamped otherwise is stale. */
export function wordListStamp(): string {
  const require = createRequire(import.meta.url);
  return ["core", "language-common", "language-en"]
    .map((name) => {
      const file = require.resolve(`@zxcvbn-ts/${name}/package.json`);
      return `@zxcvbn-ts/${name}@${JSON.parse(readFileSync(file, "utf8")).version}`;
    })
    .join(" ");
}

/**
 * The index over the English and common lists, built from them (236,000 words decompressed).
 * Their modules are then dropped from the module cache, so that those strings can be collected.
 */
export function buildWordIndex(): WordIndex {
  const require = createRequire(import.meta.url);
  const common = require("@zxcvbn-ts/language-common") as { dictionary: Record<string, WordList> };
  const en = require("@zxcvbn-ts/language-en") as { dictionary: Record<string, WordList> };
  const index = new WordIndex({ ...common.dictionary, ...en.dictionary });
  for (const key of Object.keys(require.cache)) {
    if (/[\\/]@zxcvbn-ts[\\/](language-(common|en)|dictionary-compression)[\\/]/.test(key)) {
      // The module that first required it lists it in `children` too: dropped there as well.
      const dropped = require.cache[key];
      const siblings = dropped?.parent?.children;
      const at = dropped === undefined ? -1 : (siblings?.indexOf(dropped) ?? -1);
      if (at !== -1) siblings?.splice(at, 1);
      delete require.cache[key];
    }
  }
  return index;
}

/** The index `file` holds if it was written for these packages' lists, else undefined. */
function readWordIndex(file: string): WordIndex | undefined {
  let bytes: Uint8Array;
  try {
    bytes = brotliDecompressSync(readFileSync(file), { maxOutputLength: MAX_INDEX_BYTES });
  } catch {
    return undefined;
  }
  return WordIndex.fromBytes(bytes, wordListStamp());
}

export interface Zxcvbn {
  checker: Checker;
  /** The index over all the lists, for tests. */
  index: WordIndex;
  /** Whether the index was read from the prebuilt file or built from the lists. */
  indexFrom: "file" | "lists";
}

/**
 * zxcvbn with the English and common lists and `options` (l33t substitutions, maxLength).
 * The index over the lists is read from `wordsFile` when it holds one for these packages'
 * versions (the lists are then never loaded), else built from them.
 */
export function createZxcvbn(
  options: Pick<OptionsType, "l33tMaxSubstitutions" | "maxLength">,
  wordsFile = WORDS_FILE,
): Zxcvbn {
  const require = createRequire(import.meta.url);
  const core = "@zxcvbn-ts/core/dist";
  const { ZxcvbnFactory } = require("@zxcvbn-ts/core") as {
    ZxcvbnFactory: new (
      options: OptionsType,
      matchers: Record<string, CustomMatcher>,
    ) => FactoryBase;
  };
  const search = mostGuessable(
    require(`${core}/scoring/estimate.cjs`) as Estimate,
    require(`${core}/scoring/utils.cjs`).log10 as (n: number) => number,
    require(`${core}/data/const.cjs`).MIN_GUESSES_BEFORE_GROWING_SEQUENCE as number,
  );
  class Factory extends ZxcvbnFactory {
    constructor(...args: ConstructorParameters<typeof ZxcvbnFactory>) {
      super(...args);
      const { options } = this;
      this.scoring = {
        mostGuessableMatchSequence: (password, matches) => search(options, password, matches),
      };
    }
  }
  const getCleanPasswords = require(
    `${core}/matcher/dictionary/variants/matching/unmunger/getCleanPasswords.cjs`,
  ) as GetCleanPasswords;
  const dictionaryFeedback = require(`${core}/matcher/dictionary/feedback.cjs`);
  const dictionaryScoring = require(`${core}/matcher/dictionary/scoring.cjs`);
  const WordSequence = require(`${core}/matcher/wordSequence/matching.cjs`) as MatcherClass;
  const wordSequenceFeedback = require(`${core}/matcher/wordSequence/feedback.cjs`);
  const wordSequenceScoring = require(`${core}/matcher/wordSequence/scoring.cjs`);
  // The packages' own modules, not their index.cjs, which would decompress every list.
  const translations = require("@zxcvbn-ts/language-en/dist/translations.cjs");
  const graphs = require("@zxcvbn-ts/language-common/dist/adjacencyGraphs.json.cjs");
  const sequenceLists = require("@zxcvbn-ts/language-en/dist/wordSequences.json.cjs") as Record<
    string,
    WordList
  >;
  const sequenceIndex = new WordIndex(
    Object.fromEntries(Object.entries(sequenceLists).filter(([name]) => isWordSequence(name))),
  );
  const read = readWordIndex(wordsFile);
  const index = read ?? buildWordIndex();
  // The three dictionary matchers, by the names of the built-in ones they replace.
  const matchers = (of: WordIndex) => ({
    dictionary: class {
      match({ password }: MatchOptions) {
        return of.match(password);
      }
    },
    dictionaryL33t: class {
      readonly options: MatcherOptions;
      constructor(options: MatcherOptions) {
        this.options = options;
      }
      match({ password }: MatchOptions) {
        return l33tMatches(of, password, this.options, getCleanPasswords);
      }
    },
    dictionaryReverse: class {
      match({ password }: MatchOptions) {
        return reverseMatches(of, password);
      }
    },
  });
  const own = matchers(index);
  const sequence = matchers(sequenceIndex);
  const custom = (Matching: MatcherClass): CustomMatcher => ({
    Matching,
    feedback: dictionaryFeedback,
    scoring: dictionaryScoring,
  });
  const checker = new Factory(
    {
      translations,
      graphs,
      // No lists: the built-in matchers that would read them are all replaced.
      dictionary: {},
      ...options,
    },
    {
      dictionary: custom(own.dictionary),
      dictionaryL33t: custom(own.dictionaryL33t),
      dictionaryReverse: custom(own.dictionaryReverse),
      wordSequence: {
        Matching: class extends WordSequence {
          constructor(options: MatcherOptions) {
            super(options);
            Object.assign(this, {
              dictionary: new sequence.dictionary(),
              dictionaryL33t: new sequence.dictionaryL33t(options),
              dictionaryReverse: new sequence.dictionaryReverse(),
            });
          }
        },
        feedback: wordSequenceFeedback,
        scoring: wordSequenceScoring,
      },
    },
  );
  return { checker, index, indexFrom: read === undefined ? "lists" : "file" };
}
