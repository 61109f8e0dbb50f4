/**
 * What a calculation produces and costs, declared by its operation from the validated
 * input before the handler runs. The gateways add the costs of a request (one REST call,
 * or every field of a GraphQL document) and refuse it whole when the sum passes
 * {@link REQUEST_BUDGET}: memory and CPU are bounded by what is answered, not only by
 * what is sent.
 */
import type { Exact } from "./decimal.js";

/**
 * Upper bounds for one calculation: what `cost(input)` on `defineOperation` returns.
 * Bounds, not estimates: a calculation never produces more than it declared.
 */
export interface Cost {
  /** CPU work, in digit operations (one is about a nanosecond of one core). */
  work: number;
  /** Bytes of the JSON answer (UTF-8). */
  bytes: number;
  /** The parameter a refusal points at (`["numbers"]`); the whole input when absent. */
  loc?: string[];
}

/**
 * What one request may cost in all: about 20 ms of CPU and 4 MiB of answer. Every
 * single-field request within the contract's input limits fits (the largest, a
 * 10,000-number FizzBuzz with ten 32-character ASCII words, answers 3.3 MB); a GraphQL
 * document asking for more in total is refused before any field runs.
 */
export const REQUEST_BUDGET: Readonly<Required<Omit<Cost, "loc">>> = Object.freeze({
  work: 20_000_000,
  bytes: 4 * 1024 * 1024,
});

/**
 * Work of reading one list item (a decimal literal, a network) and handling it once: about
 * a microsecond. Operations whose work grows with a list declare at least this much per
 * item, so a GraphQL document cannot ask for many full lists at once.
 */
export const ITEM_WORK = 1_000;

/**
 * Digits `values` span together in plain notation: the longest integer part plus the
 * longest fraction. Adding n such numbers is n × span digit operations, and no sum of
 * them has more than span + log10(n) + 1 digits.
 *
 * @example
 * digitSpan([new Exact("123.5"), new Exact("0.25")]); // 3 + 2 = 5
 * // cost: ({ numbers }) => { const span = digitSpan(numbers);
 * //   return { work: numbers.length * span, bytes: 2 * span + 64, loc: ["numbers"] }; }
 */
export function digitSpan(values: Iterable<Exact>): number {
  let integerDigits = 1;
  let fractionDigits = 0;
  for (const value of values) {
    if (value.e + 1 > integerDigits) integerDigits = value.e + 1;
    const places = value.decimalPlaces();
    if (places > fractionDigits) fractionDigits = places;
  }
  return integerDigits + fractionDigits;
}

/**
 * Bytes `text` takes inside a JSON answer, quotes and escapes included.
 *
 * @example
 * jsonBytes('say "hi"'); // 12
 */
export function jsonBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text), "utf8");
}
