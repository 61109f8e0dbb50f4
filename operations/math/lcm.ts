import {
  arithmeticFields,
  arithmeticResult,
  CalculationError,
  defineOperation,
  Exact,
  ITEM_WORK,
  list,
  MAX_RESULT_DIGITS,
  z,
} from "#kit";
import { abs, bigInteger, gcd } from "./_integers.js";

const MAX_NUMBERS = 1000;
const MAX_DIGITS = 100;
/** The smallest integer with more digits than an answer may have. */
const TOO_LONG = 10n ** BigInt(MAX_RESULT_DIGITS);

/**
 * A bound of the work: each step divides the running lcm (at most as many digits as the
 * numbers before it, and 10,000) by a gcd and multiplies it by a number. V8 does both in
 * schoolbook time: 1–3 ns per digit of the lcm and per 64-bit word of the number, plus
 * one (measured, 10,000 digits by 6 to 100); Euclid on two numbers of ≤ 100 digits is
 * under 2 µs.
 */
function lcmWork(numbers: readonly bigint[]): number {
  let work = 0;
  let lcmDigits = 1;
  for (const n of numbers) {
    const digits = String(abs(n)).length;
    work += 2 * ITEM_WORK + 4 * lcmDigits * (Math.ceil(digits / 19) + 1);
    lcmDigits = Math.min(MAX_RESULT_DIGITS, lcmDigits + digits);
  }
  return work;
}

export default defineOperation({
  area: "math",
  name: "lcm",
  summary: "Least common multiple of a list of integers",
  description: [
    "The least common multiple of 1 to 1,000 integers of up to 100 digits each, computed",
    "exactly on big integers: the smallest positive integer every one of them divides,",
    "built as `lcm(a, b) = |a| / gcd(a, b) × |b|`.",
    "",
    "Signs are ignored, so the answer is never negative. If any number is `0` the answer is",
    "`0` (the only common multiple of 0). The lcm of one number is its absolute value.",
    "`decimal` holds the answer exactly; `result` is the nearest double (`null` beyond the",
    "double range). An lcm needing more than 10,000 digits (it can grow with every number) is",
    "refused with a 422 as soon as the running value passes that. Large inputs are refused",
    "before any work when their declared cost passes the request budget: the work grows with",
    "the digits of the running lcm times those of each number (121 numbers of 100 digits",
    "fit, 872 of 6 digits, 1,000 of 3 digits).",
    "",
    "Each number is written in decimal digits with an optional sign (`-12`, `+7`, `007`); a",
    "point, an exponent, spaces or digit separators are refused with a 422 at the item.",
    "Send the list as repeated parameters, comma-separated, or both.",
  ].join("\n"),
  input: z.object({
    numbers: list(
      bigInteger({ maxDigits: MAX_DIGITS, description: "An integer of up to 100 digits." }),
      { min: 1, max: MAX_NUMBERS, description: "The integers: 1 to 1,000 of them." },
    ),
  }),
  output: z.object({
    ...arithmeticFields,
    count: z.int().describe("How many integers were given."),
  }),
  examples: [
    {
      title: "Three integers",
      input: { numbers: ["4", "6", "10"] },
      output: { result: 60, decimal: "60", count: 3 },
    },
    {
      title: "Signs are ignored",
      input: { numbers: ["-21", "6"] },
      output: { result: 42, decimal: "42", count: 2 },
    },
    {
      title: "A zero makes the lcm zero",
      input: { numbers: ["7", "0"] },
      output: { result: 0, decimal: "0", count: 2 },
    },
  ],
  cost: ({ numbers }) => ({
    work: lcmWork(numbers),
    bytes: 2 * (MAX_RESULT_DIGITS + 2) + 64,
    loc: ["numbers"],
  }),
  handler: ({ numbers }) => {
    let multiple = 1n;
    for (const n of numbers) {
      if (n === 0n) {
        multiple = 0n;
        break;
      }
      multiple = (multiple / gcd(multiple, n)) * abs(n);
      if (multiple >= TOO_LONG) {
        throw new CalculationError(
          `the least common multiple needs more than ${MAX_RESULT_DIGITS} digits`,
          ["numbers"],
        );
      }
    }
    return { ...arithmeticResult(new Exact(multiple.toString())), count: numbers.length };
  },
});
