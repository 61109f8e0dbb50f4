/**
 * Big-integer parameters shared by the integer operations (`math/gcd`, `math/lcm`,
 * `math/is-prime`): decimal digits with an optional sign, read into a `bigint`.
 */
import { z } from "#kit";

/**
 * An optional sign and decimal digits only: no point, exponent, spaces or separators. The
 * empty string matches, so that it is refused once, as too short.
 */
const INTEGER_TEXT = /^(?:[+-]?[0-9]+)?$/;

/**
 * A whole number of 1 to `maxDigits` decimal digits (leading zeros allowed, an optional
 * `+` or `-`), as a `bigint`. Longer strings are refused by length before they are read.
 *
 * @example
 * bigInteger({ maxDigits: 100, description: "The number to test." })
 */
export function bigInteger(options: { maxDigits: number; description: string }) {
  return z
    .string()
    .min(1)
    .max(options.maxDigits + 1)
    .regex(
      INTEGER_TEXT,
      "not an integer: write decimal digits with an optional sign (no point, exponent or separator)",
    )
    .transform((text) => BigInt(text))
    .describe(options.description);
}

/** |n|. */
export function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}

/** The greatest common divisor of |a| and |b| (Euclid); gcd(0, 0) is 0. */
export function gcd(a: bigint, b: bigint): bigint {
  let x = abs(a);
  let y = abs(b);
  while (y !== 0n) {
    const r = x % y;
    x = y;
    y = r;
  }
  return x;
}
