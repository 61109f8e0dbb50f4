/**
 * Exact rational arithmetic on BigInt for the finance operations: decimals as scaled
 * integers, quotients rounded to a number of places, and powers bracketed between two
 * bounds to round a non-terminating growth factor correctly without computing it whole.
 */
import { CalculationError, type Exact, toPlain } from "#kit";

/** A decimal as `int × 10^-scale`. */
export interface Scaled {
  int: bigint;
  scale: number;
}

/** `value` as a scaled integer (`1.25` → 125, 2). */
export function scaled(value: Exact): Scaled {
  const plain = toPlain(value);
  const point = plain.indexOf(".");
  if (point === -1) return { int: BigInt(plain), scale: 0 };
  return {
    int: BigInt(plain.slice(0, point) + plain.slice(point + 1)),
    scale: plain.length - point - 1,
  };
}

const LOG10_2 = Math.log10(2);

export const pow10 = (n: number) => 10n ** BigInt(n);

export function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export const ROUNDING_MODES = ["half-even", "half-up"] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];

/** `num / den` rounded to an integer (`den` > 0): half to even, or half away from zero. */
export function roundDiv(num: bigint, den: bigint, mode: RoundingMode): bigint {
  const negative = num < 0n;
  const magnitude = negative ? -num : num;
  let quotient = magnitude / den;
  const twice = (magnitude % den) * 2n;
  if (twice > den || (twice === den && (mode === "half-up" || quotient % 2n === 1n))) quotient++;
  return negative ? -quotient : quotient;
}

/** `int × 10^-places` written with exactly `places` decimals (`12345`, 2 → `123.45`). */
export function fixed(int: bigint, places: number): string {
  const negative = int < 0n;
  const digits = (negative ? -int : int).toString().padStart(places + 1, "0");
  const body =
    places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(digits.length - places)}`;
  return negative ? `-${body}` : body;
}

/** Decimal digits of a non-negative BigInt, without writing it out when it is long. */
export function digitCount(n: bigint): number {
  const magnitude = n < 0n ? -n : n;
  // bitLength × log10(2) is within one of the answer; check the boundary exactly.
  const bits = magnitude.toString(16).length * 4;
  if (bits <= 64) return magnitude.toString().length;
  const estimate = Math.floor((bits - 4) * LOG10_2);
  return magnitude >= pow10(estimate) ? estimate + 1 : estimate;
}

/** A positive number `m × 10^e` with `m` kept to a bounded number of digits. */
export interface Float {
  m: bigint;
  e: number;
}

/** `x` cut to `precision` digits, rounded down or up. */
function cut(x: Float, precision: number, up: boolean): Float {
  const digits = x.m.toString().length;
  if (digits <= precision) return x;
  const drop = pow10(digits - precision);
  let m = x.m / drop;
  if (up && m * drop !== x.m) m++;
  return { m, e: x.e + digits - precision };
}

const times = (x: Float, y: Float, precision: number, up: boolean) =>
  cut({ m: x.m * y.m, e: x.e + y.e }, precision, up);

/** `(num / den)^n` bounded below (`up` false) or above, each step rounded the same way. */
export function powerBound(
  num: bigint,
  den: bigint,
  n: number,
  precision: number,
  up: boolean,
): Float {
  const shift = precision + digitCount(den) - digitCount(num) + 1;
  const scaledNum = shift >= 0 ? num * pow10(shift) : num;
  const scaledDen = shift >= 0 ? den : den * pow10(-shift);
  let m = scaledNum / scaledDen;
  if (up && m * scaledDen !== scaledNum) m++;
  let base: Float = cut({ m, e: -shift }, precision, up);
  let result: Float = { m: 1n, e: 0 };
  for (let k = n; k > 0; k = Math.floor(k / 2)) {
    if (k % 2 === 1) result = times(result, base, precision, up);
    if (k > 1) base = times(base, base, precision, up);
  }
  return result;
}

/** Refuses a power whose exact computation would pass `maxDigits`. */
export function assertPowerDigits(digits: number, maxDigits: number, field: string): void {
  if (digits > maxDigits) {
    throw new CalculationError(
      `the exact calculation needs powers of about ${digits} digits; the limit is ${maxDigits}`,
      [field],
    );
  }
}
