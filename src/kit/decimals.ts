/**
 * A list of exact decimals held column-wise in typed arrays: decimal.js's own parts (sign,
 * exponent, base-10^7 words) without a decimal.js object per number. A 10,000-number list
 * is ~20 bytes a number off the heap instead of ~185 on it, so a list request leaves
 * nothing for a scavenge to promote (figures: docs/budgets-and-fairness.md).
 */
import {
  compareParts,
  Exact,
  exactFromWords,
  LITERAL_READ,
  LITERAL_WORDS,
  placesOf,
  readDecimalLiteral,
  WORD_DIGITS,
} from "./decimal.js";

/**
 * `length` exact decimals. Number `i` is `signs[i]` × 0.`words[starts[i] … starts[i+1])`
 * in base 10^7, its first significant digit at 10^`exponents[i]`, aligned as decimal.js
 * aligns its words; a zero is the single word 0 with exponent 0. `words` may be longer than
 * `starts[length]`: the rest is unused (a trimmed copy or view costs more than the list).
 *
 * @example
 * const numbers = Decimals.of([new Exact("0.1"), new Exact("-2")]);
 * numbers.at(1).toFixed(); // "-2"
 */
export class Decimals implements Iterable<Exact> {
  readonly length: number;
  readonly signs: Int8Array;
  readonly exponents: Int32Array;
  readonly starts: Int32Array;
  readonly words: Int32Array;

  /** The parts, as {@link Decimals.of} and {@link Decimals.read} build them. */
  constructor(
    length: number,
    signs: Int8Array,
    exponents: Int32Array,
    starts: Int32Array,
    words: Int32Array,
  ) {
    this.length = length;
    this.signs = signs;
    this.exponents = exponents;
    this.starts = starts;
    this.words = words;
  }

  /** The list of decimal.js values `values`, in order. */
  static of(values: readonly Exact[]): Decimals {
    const builder = new DecimalsBuilder(values.length);
    for (const value of values) builder.add(value.s as 1 | -1, value.e, value.d, value.d.length);
    return builder.done();
  }

  /**
   * Reads `texts` as decimal literals: each by the fast path, or else by `readLong`
   * (a decimal.js value, or undefined to refuse it). Undefined when one is not a string
   * or is refused.
   */
  static read(
    texts: readonly unknown[],
    readLong: (text: string) => Exact | undefined,
  ): Decimals | undefined {
    const builder = new DecimalsBuilder(texts.length);
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i];
      if (typeof text !== "string") return undefined;
      if (readDecimalLiteral(text)) {
        builder.add(LITERAL_READ.sign, LITERAL_READ.exponent, LITERAL_WORDS, LITERAL_READ.count);
      } else {
        const value = readLong(text);
        if (value === undefined) return undefined;
        builder.add(value.s as 1 | -1, value.e, value.d, value.d.length);
      }
    }
    return builder.done();
  }

  /** Number `index` as a decimal.js value (a fresh one on every call). */
  at(index: number): Exact {
    const start = this.starts[index] as number;
    const end = this.starts[index + 1] as number;
    const sign = this.signs[index] as 1 | -1;
    if (this.words[start] === 0) return new Exact(sign === -1 ? -0 : 0);
    const words = new Array<number>(end - start);
    for (let i = start; i < end; i++) words[i - start] = this.words[i] as number;
    return exactFromWords(sign, this.exponents[index] as number, words);
  }

  isZero(index: number): boolean {
    return this.words[this.starts[index] as number] === 0;
  }

  /** Places after the point of number `index` (decimal.js's `decimalPlaces()`). */
  decimalPlaces(index: number): number {
    const end = this.starts[index + 1] as number;
    const count = end - (this.starts[index] as number);
    return placesOf(this.exponents[index] as number, count, this.words[end - 1] as number);
  }

  /**
   * -1, 0 or 1 as number `a` is below, equal to or above number `b`: decimal.js's `cmp`,
   * on the parts.
   */
  compare(a: number, b: number): -1 | 0 | 1 {
    const aStart = this.starts[a] as number;
    const bStart = this.starts[b] as number;
    return compareParts(
      this.signs[a] as number,
      this.exponents[a] as number,
      this.words,
      aStart,
      (this.starts[a + 1] as number) - aStart,
      this.signs[b] as number,
      this.exponents[b] as number,
      this.words,
      bStart,
      (this.starts[b + 1] as number) - bStart,
    );
  }

  /**
   * Digits the numbers span together in plain notation: the longest integer part plus the
   * longest fraction. Adding n such numbers is n × span digit operations, and no sum of
   * them has more than span + log10(n) + 1 digits.
   */
  digitSpan(): number {
    let integerDigits = 1;
    let fractionDigits = 0;
    for (let i = 0; i < this.length; i++) {
      const e = this.exponents[i] as number;
      if (e + 1 > integerDigits) integerDigits = e + 1;
      const places = this.decimalPlaces(i);
      if (places > fractionDigits) fractionDigits = places;
    }
    return integerDigits + fractionDigits;
  }

  *[Symbol.iterator](): Iterator<Exact> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }
}

/** Fills a {@link Decimals}' arrays; its words grow by doubling. */
class DecimalsBuilder {
  length = 0;
  used = 0;
  readonly signs: Int8Array;
  readonly exponents: Int32Array;
  readonly starts: Int32Array;
  words: Int32Array;

  constructor(capacity: number) {
    this.signs = new Int8Array(capacity);
    this.exponents = new Int32Array(capacity);
    this.starts = new Int32Array(capacity + 1);
    // Most literals clients send need one or two words.
    this.words = new Int32Array(2 * capacity + WORD_DIGITS);
  }

  add(sign: 1 | -1, exponent: number, words: ArrayLike<number>, count: number): void {
    const index = this.length++;
    this.signs[index] = sign;
    this.exponents[index] = exponent;
    if (this.used + count > this.words.length) {
      const grown = new Int32Array(2 * (this.used + count));
      grown.set(this.words);
      this.words = grown;
    }
    for (let i = 0; i < count; i++) this.words[this.used++] = words[i] as number;
    this.starts[index + 1] = this.used;
  }

  done(): Decimals {
    return new Decimals(this.length, this.signs, this.exponents, this.starts, this.words);
  }
}
