/** Roman numerals, shared by `misc/to-roman` and `misc/from-roman`. */

/** Values and symbols, largest first, the subtractive pairs included. */
const SYMBOLS: readonly [number, string][] = [
  [1000, "M"],
  [900, "CM"],
  [500, "D"],
  [400, "CD"],
  [100, "C"],
  [90, "XC"],
  [50, "L"],
  [40, "XL"],
  [10, "X"],
  [9, "IX"],
  [5, "V"],
  [4, "IV"],
  [1, "I"],
];

export const MIN_ROMAN = 1;
export const MAX_ROMAN = 3999;

/**
 * The canonical numeral of 1 to 3999 (the largest symbols first, subtractive pairs for
 * 4s and 9s).
 *
 * @example
 * toRoman(1994); // "MCMXCIV"
 */
export function toRoman(value: number): string {
  let rest = value;
  let numeral = "";
  for (const [symbolValue, symbol] of SYMBOLS) {
    while (rest >= symbolValue) {
      numeral += symbol;
      rest -= symbolValue;
    }
  }
  return numeral;
}

/** Exactly the canonical numerals of 1 to 3999 (and the empty string, refused apart). */
export const CANONICAL = /^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/;

const LETTER_VALUES: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };

/**
 * What a numeral adds up to when read leniently (a smaller symbol before a larger one is
 * subtracted), for saying what a non-canonical numeral was probably meant to be; undefined
 * when it holds a character that is not a Roman digit.
 */
export function lenientValue(numeral: string): number | undefined {
  let total = 0;
  for (let i = 0; i < numeral.length; i++) {
    const value = LETTER_VALUES[numeral.charAt(i)];
    if (value === undefined) return undefined;
    const next = LETTER_VALUES[numeral.charAt(i + 1)] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}
