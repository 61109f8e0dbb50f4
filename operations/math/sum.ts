import {
  arithmeticFields,
  arithmeticResult,
  decimal,
  defineOperation,
  digitSpan,
  Exact,
  list,
  z,
} from "#kit";

export default defineOperation({
  area: "math",
  name: "sum",
  summary: "Sum of a list of numbers, exactly",
  description:
    "Adds 1 to 10,000 decimal numbers in arbitrary precision, so `0.1 + 0.2` is exactly `0.3`. " +
    "Send the list as repeated parameters (`numbers=1&numbers=2`), comma-separated (`numbers=1,2`), or both.\n\n" +
    "A result needing more than 10,000 digits in plain notation is refused with a 422, and so is a " +
    "list whose size times the digits its numbers span together exceeds 20 million (say, 10,000 " +
    "numbers reaching from 1e1000 to 1e-1000): that much work is not done for one request.",
  input: z.object({
    numbers: list(decimal(), { min: 1, max: 10_000, description: "The numbers to add." }),
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
  // Adding is count × span digit operations; the sum has at most span + 5 digits.
  cost: ({ numbers }) => {
    const span = digitSpan(numbers);
    return { work: numbers.length * span, bytes: 2 * span + 64, loc: ["numbers"] };
  },
  handler: ({ numbers }) => ({
    ...arithmeticResult(numbers.reduce((total, n) => total.plus(n), new Exact(0))),
    count: numbers.length,
  }),
});
