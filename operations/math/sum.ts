import { arithmeticFields, arithmeticResult, decimals, defineOperation, ITEM_WORK, z } from "#kit";
import { exactSum } from "./_sum.js";

export default defineOperation({
  area: "math",
  name: "sum",
  summary: "Sum of a list of numbers, exactly",
  description:
    "Adds 1 to 10,000 decimal numbers in arbitrary precision, so `0.1 + 0.2` is exactly `0.3`. " +
    "Send the list as repeated parameters (`numbers=1&numbers=2`), comma-separated (`numbers=1,2`), or both.\n\n" +
    "A result needing more than 10,000 digits in plain notation is refused with a 422.",
  input: z.object({
    numbers: decimals({ min: 1, max: 10_000, description: "The numbers to add." }),
  }),
  output: z.object({
    ...arithmeticFields,
    count: z.int().describe("How many numbers were added."),
  }),
  examples: [
    {
      title: "Decimal fractions add exactly",
      input: { numbers: ["0.1", "0.2"] },
      output: { result: 0.3, decimal: "0.3", count: 2 },
    },
    {
      title: "Integers beyond 2^53 stay exact",
      input: { numbers: ["9007199254740993", "1"] },
      output: { result: 9007199254740994, decimal: "9007199254740994", count: 2 },
    },
  ],
  // Reading a number and adding its words into the columns is about ITEM_WORK (the one
  // carry over at most 2,860 columns is lost in it); the sum has at most span + 5 digits.
  cost: ({ numbers }) => ({
    work: numbers.length * ITEM_WORK,
    bytes: 2 * numbers.digitSpan() + 64,
    loc: ["numbers"],
  }),
  handler: ({ numbers }) => ({
    ...arithmeticResult(exactSum(numbers)),
    count: numbers.length,
  }),
});
