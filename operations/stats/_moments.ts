/**
 * Exact sums, order and square roots shared by the statistics operations (`stats/mean`,
 * `stats/median`, `stats/variance`, `stats/standard-deviation`, `stats/percentile`).
 */
import {
  assertWritable,
  CalculationError,
  type Decimals,
  Exact,
  ITEM_WORK,
  MAX_RESULT_DIGITS,
} from "#kit";
import { exactSum, exactSumOfSquares } from "../math/_sum.js";

/** The exact sum of the numbers, added column by column as `math/sum` adds them. */
export function sumOf(numbers: Decimals): Exact {
  return exactSum(numbers);
}

/**
 * `numerator / divisor` as the kit divides (exact when the quotient terminates within
 * 10,000 digits, else correctly rounded to 50), and whether it is exact: a rounded
 * quotient times the divisor never gives the numerator back.
 */
export function quotient(
  numerator: Exact,
  divisor: Exact | number,
): { value: Exact; isExact: boolean } {
  const value = numerator.div(divisor);
  return { value, isExact: value.times(divisor).eq(numerator) };
}

/** The indexes of `numbers` in ascending order of their values (a stable sort). */
export function sortedIndexes(numbers: Decimals): Uint32Array {
  const order = new Uint32Array(numbers.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((a, b) => numbers.compare(a, b) || a - b);
}

/** The variance's definitions: divide by n, or by n − 1 (Bessel's correction). */
export const VARIANCE_KINDS = ["sample", "population"] as const;
export type VarianceKind = (typeof VARIANCE_KINDS)[number];

/**
 * The variance as an exact ratio: `(n·Σx² − (Σx)²) / (n·d)`, d being n (population) or
 * n − 1 (sample). The numerator is exact (products and sums) and never negative.
 */
export function varianceRatio(
  numbers: Decimals,
  kind: VarianceKind,
): { numerator: Exact; denominator: number } {
  const n = numbers.length;
  if (kind === "sample" && n < 2) {
    throw new CalculationError("the sample variance needs at least two numbers", ["numbers"]);
  }
  const span = numbers.digitSpan();
  // Squares of numbers spanning s digits need up to 2s digits; their sum a few more.
  if (2 * span + 10 > MAX_RESULT_DIGITS) {
    throw new CalculationError(
      `the squares of these numbers need more than ${MAX_RESULT_DIGITS} digits (they span ${span} digits; at most ${(MAX_RESULT_DIGITS - 10) / 2} are allowed)`,
      ["numbers"],
    );
  }
  const sum = exactSum(numbers);
  const squares = exactSumOfSquares(numbers);
  const numerator = squares.times(n).minus(sum.times(sum));
  assertWritable(numerator, "the variance's numerator");
  return { numerator, denominator: n * (kind === "sample" ? n - 1 : n) };
}

/** Bits of a positive BigInt. */
function bitLength(n: bigint): number {
  const hex = n.toString(16);
  return (hex.length - 1) * 4 + 32 - Math.clz32(Number.parseInt(hex.charAt(0), 16));
}

/**
 * ⌊√n⌋ of n ≥ 0: the root of the top half of the bits first, then Newton's steps from
 * above, so the work is about two divisions at full size.
 */
export function isqrt(n: bigint): bigint {
  if (n < 0x10_0000_0000_0000n) {
    let r = BigInt(Math.floor(Math.sqrt(Number(n))));
    while (r * r > n) r--;
    while ((r + 1n) * (r + 1n) <= n) r++;
    return r;
  }
  const shift = BigInt(Math.floor((bitLength(n) - 1) / 4));
  // Within a factor (1 + 2^-shift) below the root; one Newton step lands at or above it.
  let r = (isqrt(n >> (2n * shift)) + 1n) << shift;
  // From above, integer Newton steps decrease strictly until they reach ⌊√n⌋.
  for (;;) {
    const next = (r + n / r) >> 1n;
    if (next >= r) return r;
    r = next;
  }
}

/** A square root rounded to `precision` significant digits, and what else is known of it. */
export interface RoundedRoot {
  /** The root correctly rounded half to even to `precision` significant digits. */
  rounded: Exact;
  /** The double nearest to the exact root. */
  nearest: number | null;
  /** Whether the root is exactly `rounded`. */
  isExact: boolean;
}

/** Decimal digits of a small positive BigInt. */
const digitsOf = (n: bigint) => n.toString().length;

/**
 * About the decimal digits of a positive BigInt (at most one off), from its bits: V8 writes
 * a 10,000-digit BigInt in decimal in milliseconds.
 */
const LOG10_2 = Math.log10(2);
const digitsAbout = (n: bigint) => Math.floor(bitLength(n) * LOG10_2) + 1;

/**
 * √(numerator / denominator) for an exact `numerator` ≥ 0 and a positive integer
 * `denominator`, correctly rounded, on integers: with N = numerator·10^f an integer (f
 * even) and D = denominator, the root is √(N·D) / (D·10^(f/2)), so ⌊√(N·D·100^k)⌋ and
 * whether it is exact give the first digits of the root and whether any follow.
 */
export function rootOfRatio(numerator: Exact, denominator: number, precision: number): RoundedRoot {
  if (numerator.isZero()) return { rounded: new Exact(0), nearest: 0, isExact: true };
  let places = numerator.decimalPlaces();
  let scaled = BigInt(numerator.toFixed().replace(".", ""));
  if (places % 2 === 1) {
    scaled *= 10n;
    places++;
  }
  const d = BigInt(denominator);
  const m = scaled * d;
  // Digits wanted: enough for `precision` and a double (17), with room for a rounding bracket.
  const wanted = Math.max(precision, 17) + 3;
  let k = Math.max(0, wanted + digitsOf(d) - Math.floor(digitsAbout(m) / 2) + 1);
  for (let attempt = 0; ; attempt++) {
    const radicand = m * 10n ** BigInt(2 * k);
    const root = isqrt(radicand);
    const q = root / d;
    if (digitsOf(q) <= wanted && attempt < 4) {
      k += wanted + 1 - digitsOf(q);
      continue;
    }
    // Dividing is much faster than squaring in V8 at these sizes (0.6 against 6 ms).
    const inexact = radicand / root !== root || radicand % root !== 0n || root % d !== 0n;
    const scale = -(k + places / 2);
    // The root lies in [q, q + 1) · 10^scale, and is q · 10^scale exactly when not inexact.
    const low = Number(`${q}e${scale}`);
    const high = Number(`${q + 1n}e${scale}`);
    if (inexact && low !== high && attempt < 4) {
      k += 20; // between two doubles' midpoint and q: look closer
      continue;
    }
    const cut = digitsOf(q) - precision;
    const unit = 10n ** BigInt(cut);
    let head = q / unit;
    const tail = q % unit;
    const half = 5n * (unit / 10n);
    if (tail > half || (tail === half && (inexact || head % 2n === 1n))) head += 1n;
    const rounded = new Exact(`${head}e${cut + scale}`);
    return {
      rounded,
      nearest: Number.isFinite(low) ? low : null,
      isExact: !inexact && tail === 0n,
    };
  }
}

/**
 * A bound of {@link varianceRatio}'s work: the sum as `math/sum` (about ITEM_WORK a
 * number) and the squares' columns (half as much again), the squares word by word
 * (w·(w + 1)/2 products for a number of w base-10^7 words, 10 to 40 ns each on a loaded
 * machine, measured), then two products of sums of up to 2·span + 5 digits, about
 * (digits / 7)² word products each.
 */
export function varianceWork(numbers: Decimals): number {
  const { starts } = numbers;
  let work = 0;
  for (let n = 0; n < numbers.length; n++) {
    const words = (starts[n + 1] as number) - (starts[n] as number);
    work += 1.5 * ITEM_WORK + 20 * words * (words + 1);
  }
  const sumWords = (2 * numbers.digitSpan() + 12) / 7;
  return work + Math.ceil(2 * sumWords * sumWords);
}

/**
 * A bound of {@link rootOfRatio}'s work on the variance of numbers spanning `span` digits:
 * V8 reads, divides and roots a radicand of L ≈ 2·span digits in roughly quadratic time
 * (10 ms for L = 10,000, measured), so 0.15·L².
 */
export function rootWork(span: number): number {
  const digits = 2 * span + 140;
  return Math.ceil(0.15 * digits * digits);
}
