/**
 * What a calculation produces and costs, declared by its operation from the validated
 * input before the handler runs. The gateways add the costs of a request (one REST call,
 * or every field of a GraphQL document) and refuse it whole when the sum passes
 * {@link REQUEST_BUDGET}: memory and CPU are bounded by what is answered, not only by
 * what is sent.
 */
import { Exact, WORD_DIGITS } from "./decimal.js";
import { Decimals } from "./decimals.js";

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
 * Work of reading one UTF-16 unit of a text parameter (checking it, encoding it, a simple
 * pass over it): about 10 ns. What an operation that declares no cost is charged per
 * character (see {@link readingCost}).
 */
export const CHAR_WORK = 10;

/**
 * What reading a validated input costs, for operations that declare no `cost` of their
 * own: {@link CHAR_WORK} per UTF-16 unit of each text, {@link ITEM_WORK} per list item,
 * {@link CHAR_WORK} per digit of each decimal. No answer bytes: an operation whose answer
 * grows with its input declares its own cost. GraphQL and MCP add it up over a request,
 * so no document can multiply a large input for free (100 aliases sharing one variable).
 *
 * @example
 * readingCost({ text: "abc", numbers: ["1", "2"] }); // { work: 2030, bytes: 0 }
 */
export function readingCost(input: unknown): Cost {
  return { work: workOf(input, 0), bytes: 0 };
}

function workOf(value: unknown, depth: number): number {
  if (typeof value === "string") return value.length * CHAR_WORK;
  if (typeof value !== "object" || value === null || depth > 4) return 0;
  if (value instanceof Exact) return value.d.length * WORD_DIGITS * CHAR_WORK;
  if (Array.isArray(value)) {
    let work = value.length * ITEM_WORK;
    for (const item of value) work += workOf(item, depth + 1);
    return work;
  }
  // A compact list: its items, as a list's.
  if (value instanceof Decimals) return value.length * ITEM_WORK;
  let work = 0;
  for (const key of Object.keys(value))
    work += workOf((value as Record<string, unknown>)[key], depth + 1);
  return work;
}

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
