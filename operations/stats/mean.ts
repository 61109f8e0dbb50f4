import {
  arithmeticFields,
  arithmeticResult,
  decimals,
  defineOperation,
  ITEM_WORK,
  MAX_RESULT_DIGITS,
  z,
} from "#kit";
import { quotient, sumOf } from "./_moments.js";

export default defineOperation({
  area: "stats",
  name: "mean",
  summary: "Arithmetic mean of a list of numbers, exactly",
  description: [
    "The sum of 1 to 10,000 numbers divided by their count, in exact decimal arithmetic:",
    "the mean of `0.1`, `0.2` and `0.3` is exactly `0.2`.",
    "",
    "When the quotient terminates (within 10,000 digits) `decimal` is exact and `isExact` is",
    "true; otherwise (the mean of 1, 1 and 2 is 1.333…) it is correctly rounded, half to even,",
    "to 50 significant digits and `isExact` is false. `result` is the double nearest to",
    "`decimal` (`null` beyond the double range). Send the list as repeated parameters",
    "(`numbers=1&numbers=2`), comma-separated (`numbers=1,2`), or both.",
  ].join("\n"),
  input: z.object({
    numbers: decimals({ min: 1, max: 10_000, description: "The numbers to average." }),
  }),
  output: z.object({
    ...arithmeticFields,
    isExact: z.boolean().describe("Whether `decimal` is the exact mean (false when rounded)."),
    count: z.int().describe("How many numbers were given."),
  }),
  examples: [
    {
      title: "Decimal fractions, exactly",
      input: { numbers: ["0.1", "0.2", "0.3"] },
      output: { result: 0.2, decimal: "0.2", isExact: true, count: 3 },
    },
    {
      title: "A mean that does not terminate is rounded to 50 digits",
      input: { numbers: ["1", "1", "2"] },
      output: {
        result: 1.3333333333333333,
        decimal: "1.3333333333333333333333333333333333333333333333333",
        isExact: false,
        count: 3,
      },
    },
    {
      title: "One number is its own mean",
      input: { numbers: ["-7.25"] },
      output: { result: -7.25, decimal: "-7.25", isExact: true, count: 1 },
    },
  ],
  // The sum as `math/sum` adds it, about ITEM_WORK a number; the quotient is bounded by
  // the kit (at most 10,000 digits, or 50 rounded).
  cost: ({ numbers }) => ({
    work: numbers.length * ITEM_WORK + 100 * ITEM_WORK,
    bytes: 2 * (MAX_RESULT_DIGITS + 2) + 128,
    loc: ["numbers"],
  }),
  handler: ({ numbers }) => {
    const mean = quotient(sumOf(numbers), numbers.length);
    return { ...arithmeticResult(mean.value), isExact: mean.isExact, count: numbers.length };
  },
});
