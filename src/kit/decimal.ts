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
 * A short literal: optional sign, at most 15 digits before and 15 after the point, and an
 * optional exponent of at most 4 digits. Literal length and syntax hold by construction;
 * the digit limits are checked on the value.
 */
const SHORT_LITERAL = /^[+-]?(?:\d{1,15}(?:\.\d{0,15})?|\.\d{1,15})(?:[eE][+-]?\d{1,4})?$/;
/** Longest literal {@link SHORT_LITERAL} admits (sign, 15 digits, point, 15 digits, `e-9999`). */
const SHORT_MAX_LENGTH = 38;
/** Integer literals this long or shorter are below 10^7: decimal.js builds those from a number without parsing text. */
const SMALL_INTEGER_MAX_LENGTH = 7;

/**
 * The fast path for the literals clients usually send (`1`, `-2.5`, `0.125`, `2.5e-4`): the
 * value, or undefined when `text` is not such a short literal within the digit limits (then
 * the full checks run).
 *
 * @example
 * parseShortDecimal("0.1")?.toFixed(); // "0.1"
 * parseShortDecimal("1e10000"); // undefined
 */
export function parseShortDecimal(text: string): Exact | undefined {
  if (text.length > SHORT_MAX_LENGTH || !SHORT_LITERAL.test(text)) return undefined;
  if (text.length <= SMALL_INTEGER_MAX_LENGTH && text.indexOf(".") === -1) {
    // No point within 7 characters: an integer, unless it has an exponent (`1e5`).
    if (text.indexOf("e") === -1 && text.indexOf("E") === -1) return new Exact(Number(text));
  }
  const value = new Exact(text);
  // Only an exponent can take a short literal past the digit limits: the full checks refuse it.
  if (
    !value.isZero() &&
    (Math.abs(value.e) > MAX_RESULT_DIGITS || plainDigitCount(value) > MAX_RESULT_DIGITS)
  ) {
    return undefined;
  }
  return value;
}
