/**
 * Exact decimal arithmetic for operations. Every arithmetic result is reported twice:
 * `decimal`, the exact value in plain notation, and `result`, the nearest double.
 */
import { Decimal as DecimalJs } from "decimal.js";
import { boundInexactArithmetic } from "./bounded.js";
import { CalculationError } from "./errors.js";

/**
 * A decimal.js constructor whose precision is so large that addition, subtraction and
 * multiplication are exact for every value this service accepts, and which never
 * switches to exponent notation.
 */
export const Exact = DecimalJs.clone({
  precision: 1e9,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
  minE: -9e15,
  maxE: 9e15,
});
export type Exact = InstanceType<typeof Exact>;
// Division, roots and powers would otherwise work to 10^9 digits (see bounded.ts).
boundInexactArithmetic(Exact);

/** Longest decimal literal accepted as input. */
export const MAX_LITERAL_LENGTH = 100;
/** Inputs and results whose plain notation needs more digits than this are refused. */
export const MAX_RESULT_DIGITS = 10_000;

/** Optional sign, digits with optional fraction (`.5`, `5.`), optional exponent. */
export const DECIMAL_LITERAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * How many digits `value` needs in plain notation (`"0.001"` needs 4, `"1e3"` needs 4).
 *
 * @example
 * plainDigitCount(new Exact("1e-3")); // 4
 */
export function plainDigitCount(value: Exact): number {
  const integerDigits = value.e >= 0 ? value.e + 1 : 1;
  return integerDigits + value.decimalPlaces();
}

/**
 * The exact value in plain positional notation, never with an exponent; zero is `"0"`.
 *
 * @example
 * toPlain(new Exact("2.5E-4")); // "0.00025"
 */
export function toPlain(value: Exact): string {
  return value.isZero() ? "0" : value.toFixed();
}

/**
 * The double nearest to `value`, or `null` when its magnitude is beyond the double range.
 * `Number()` on a decimal string rounds correctly to nearest.
 */
export function nearestDouble(value: Exact | string): number | null {
  const double = Number(typeof value === "string" ? value : toPlain(value));
  return Number.isFinite(double) ? double : null;
}

/** Refuses a value whose plain notation would exceed {@link MAX_RESULT_DIGITS}. */
export function assertWritable(value: Exact, what = "the result"): void {
  if (!value.isFinite()) throw new CalculationError(`${what} is not a finite number`);
  const digits = plainDigitCount(value);
  if (digits > MAX_RESULT_DIGITS) {
    throw new CalculationError(
      `${what} needs ${digits} digits in plain notation, more than the limit of ${MAX_RESULT_DIGITS}`,
    );
  }
}

/** The `result` + `decimal` pair every arithmetic response carries. */
export interface ArithmeticResult {
  result: number | null;
  decimal: string;
}

/**
 * Packs an exact value as `{ result, decimal }`, refusing one too long to write down.
 *
 * @example
 * arithmeticResult(new Exact("0.1").plus("0.2")); // { result: 0.3, decimal: "0.3" }
 */
export function arithmeticResult(value: Exact): ArithmeticResult {
  assertWritable(value);
  const decimal = toPlain(value);
  return { result: nearestDouble(decimal), decimal };
}

/**
 * Compares two finite values: -1, 0 or 1 as `a` is below, equal to or above `b`. What
 * decimal.js's `cmp` answers, without the copy of `b` it makes on every call (a list of
 * 10,000 compared one by one would allocate 10,000 copies).
 *
 * @example
 * compareExact(new Exact("0.1"), new Exact("0.10")); // 0
 */
export function compareExact(a: Exact, b: Exact): -1 | 0 | 1 {
  return compareParts(a.s, a.e, a.d, 0, a.d.length, b.s, b.e, b.d, 0, b.d.length);
}

/**
 * {@link compareExact} on decimal.js's parts: sign, exponent, and `length` base-10^7 words
 * of `words` from `start` (a zero, of either sign, is the single word 0). For values held
 * as parts ({@link Decimals}) as much as for decimal.js values.
 */
export function compareParts(
  aSign: number,
  aE: number,
  aWords: ArrayLike<number>,
  aStart: number,
  aLength: number,
  bSign: number,
  bE: number,
  bWords: ArrayLike<number>,
  bStart: number,
  bLength: number,
): -1 | 0 | 1 {
  const sign = aSign as 1 | -1;
  if (bWords[bStart] === 0) return aWords[aStart] === 0 ? 0 : sign;
  if (aWords[aStart] === 0) return -bSign as -1 | 1;
  if (aSign !== bSign) return sign;
  // Same sign from here: a larger magnitude is the larger value when positive.
  if (aE !== bE) return aE > bE ? sign : (-sign as -1 | 1);
  const common = Math.min(aLength, bLength);
  for (let i = 0; i < common; i++) {
    const x = aWords[aStart + i] as number;
    const y = bWords[bStart + i] as number;
    if (x !== y) return x > y ? sign : (-sign as -1 | 1);
  }
  if (aLength === bLength) return 0;
  return aLength > bLength ? sign : (-sign as -1 | 1);
}

/** Digits a short literal may have before, and after, its point. */
const SHORT_DIGITS = 15;
/** Digits a short literal's exponent may have. */
const SHORT_EXPONENT_DIGITS = 4;
/** decimal.js keeps a value's digits in words of 7, base 10^7, aligned on the point. */
export const WORD_DIGITS = 7;

const ZERO = 48;
const NINE = 57;
const isDigit = (code: number) => code >= ZERO && code <= NINE;

/** The digit at `position` of a literal's digits, the point skipped (no closure per call). */
function digitAt(
  text: string,
  position: number,
  integerStart: number,
  integerDigits: number,
  shift: number,
): number {
  return (
    text.charCodeAt(position < integerDigits ? integerStart + position : shift + position) - ZERO
  );
}

/**
 * The value decimal.js would hold for `sign` × 0.`words` × 10^(`exponent` + 1), built in
 * its own representation: `words` are base-10^7 digits, most significant first, aligned on
 * the point as decimal.js aligns them (the first word holds the digits down to the next
 * place that is a multiple of 7), the first and last non-zero; `exponent` is the power of
 * ten of the first significant digit. For code that computes words itself (a sum carried
 * word by word) and need not print and reparse them.
 *
 * @example
 * exactFromWords(1, 8, [12, 3_400_000]).toFixed(); // "123400000"
 */
export function exactFromWords(sign: 1 | -1, exponent: number, words: number[]): Exact {
  const value = new Exact(sign);
  // decimal.js declares these read-only; it builds its own values the same way.
  const parts = value as unknown as { e: number; d: number[] };
  parts.e = exponent;
  parts.d = words;
  return value;
}

/**
 * What {@link readShortDecimal} read last: sign, decimal.js's exponent, and `count` words
 * in {@link SHORT_WORDS}. One object, reused: reading a literal allocates nothing.
 */
export const SHORT_READ = { sign: 1 as 1 | -1, exponent: 0, count: 0 };
/** Words of the literal read last: at most 30 digits, so at most 6 words (reused). */
export const SHORT_WORDS: number[] = [0, 0, 0, 0, 0, 0];

/**
 * Places after the point of a value with decimal.js's exponent `e` and `count` words whose
 * last is `last`: decimal.js's `decimalPlaces()`, from the parts.
 */
export function placesOf(e: number, count: number, last: number): number {
  let places = (count - 1 - Math.floor(e / WORD_DIGITS)) * WORD_DIGITS;
  if (last !== 0) for (let word = last; word % 10 === 0; word /= 10) places--;
  return Math.max(places, 0);
}

/**
 * The fast path for the literals clients usually send (`1`, `-2.5`, `0.125`, `2.5e-4`): an
 * optional sign, at most 15 digits before and 15 after the point, and an optional
 * exponent of at most 4 digits. Read in one pass over the characters into decimal.js's
 * own representation (sign, exponent, base-10^7 words), left in {@link SHORT_READ} and
 * {@link SHORT_WORDS}: the value decimal.js would parse, without its regular expressions
 * and string slicing. False when `text` is not such a literal, or needs more digits than
 * the limits (then the full checks run). A zero is decimal.js's: the one word 0, exponent 0.
 */
export function readShortDecimal(text: string): boolean {
  const length = text.length;
  let at = 0;
  let sign: 1 | -1 = 1;
  const first = text.charCodeAt(0);
  if (first === 45 /* - */) {
    sign = -1;
    at = 1;
  } else if (first === 43 /* + */) {
    at = 1;
  }
  const integerStart = at;
  while (at < length && isDigit(text.charCodeAt(at))) at++;
  const integerEnd = at;
  let fractionStart = at;
  if (at < length && text.charCodeAt(at) === 46 /* . */) {
    fractionStart = ++at;
    while (at < length && isDigit(text.charCodeAt(at))) at++;
  }
  const fractionEnd = at;
  const integerDigits = integerEnd - integerStart;
  const fractionDigits = fractionEnd - fractionStart;
  if (integerDigits + fractionDigits === 0) return false;
  if (integerDigits > SHORT_DIGITS || fractionDigits > SHORT_DIGITS) return false;
  let exponent = 0;
  if (at < length) {
    const e = text.charCodeAt(at);
    if (e !== 101 /* e */ && e !== 69 /* E */) return false;
    let exponentSign = 1;
    const next = text.charCodeAt(++at);
    if (next === 45) {
      exponentSign = -1;
      at++;
    } else if (next === 43) {
      at++;
    }
    const exponentStart = at;
    while (at < length && isDigit(text.charCodeAt(at))) {
      exponent = exponent * 10 + (text.charCodeAt(at) - ZERO);
      at++;
    }
    const exponentDigits = at - exponentStart;
    if (at !== length || exponentDigits === 0 || exponentDigits > SHORT_EXPONENT_DIGITS) {
      return false;
    }
    exponent *= exponentSign;
  }
  // The significant digits run from the first non-zero one to the last non-zero one,
  // across the point: positions count digits, the point not included.
  const digitCount = integerDigits + fractionDigits;
  const shift = fractionStart - integerDigits;
  let firstSignificant = 0;
  while (
    firstSignificant < digitCount &&
    digitAt(text, firstSignificant, integerStart, integerDigits, shift) === 0
  ) {
    firstSignificant++;
  }
  SHORT_READ.sign = sign;
  if (firstSignificant === digitCount) {
    SHORT_READ.exponent = 0;
    SHORT_READ.count = 1;
    SHORT_WORDS[0] = 0;
    return true;
  }
  let lastSignificant = digitCount - 1;
  while (digitAt(text, lastSignificant, integerStart, integerDigits, shift) === 0) {
    lastSignificant--;
  }
  // decimal.js's exponent: the power of ten of the first significant digit.
  const e = integerDigits - 1 - firstSignificant + exponent;
  if (Math.abs(e) > MAX_RESULT_DIGITS) return false;
  // The first word holds the digits down to the next place that is a multiple of 7.
  let wordLeft = (e + 1) % WORD_DIGITS;
  if (wordLeft <= 0) wordLeft += WORD_DIGITS;
  let count = 0;
  let word = 0;
  for (let position = firstSignificant; position <= lastSignificant; position++) {
    word = word * 10 + digitAt(text, position, integerStart, integerDigits, shift);
    if (--wordLeft === 0) {
      SHORT_WORDS[count++] = word;
      word = 0;
      wordLeft = WORD_DIGITS;
    }
  }
  if (wordLeft !== WORD_DIGITS) SHORT_WORDS[count++] = word * 10 ** wordLeft;
  const integerPlaces = e >= 0 ? e + 1 : 1;
  const last = SHORT_WORDS[count - 1] as number;
  if (integerPlaces + placesOf(e, count, last) > MAX_RESULT_DIGITS) return false;
  SHORT_READ.exponent = e;
  SHORT_READ.count = count;
  return true;
}

/**
 * {@link readShortDecimal}'s value as a decimal.js value; undefined when it reads none.
 *
 * @example
 * parseShortDecimal("0.1")?.toFixed(); // "0.1"
 * parseShortDecimal("1e10000"); // undefined
 */
export function parseShortDecimal(text: string): Exact | undefined {
  if (!readShortDecimal(text)) return undefined;
  // A zero: decimal.js's own form of it, with the sign written.
  if (SHORT_WORDS[0] === 0) return new Exact(SHORT_READ.sign === -1 ? -0 : 0);
  // Copied out at their exact length: an array grown by push() reserves 16 slots.
  return exactFromWords(
    SHORT_READ.sign,
    SHORT_READ.exponent,
    SHORT_WORDS.slice(0, SHORT_READ.count),
  );
}
