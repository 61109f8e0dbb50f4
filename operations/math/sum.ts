import {
  arithmeticFields,
  arithmeticResult,
  decimal,
  defineOperation,
  Exact,
  list,
  z,
} from "../../src/kit/index.js";

export default defineOperation({
  area: "math",
  name: "sum",
  summary: "Sum of a list of numbers, exactly",
  description:
    "Adds 1 to 10,000 decimal numbers in arbitrary precision, so `0.1 + 0.2` is exactly `0.3`. " +
    "Send the list as repeated parameters (`numbers=1&numbers=2`), comma-separated (`numbers=1,2`), or both.",
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
  handler: ({ numbers }) => ({
    ...arithmeticResult(numbers.reduce((total, n) => total.plus(n), new Exact(0))),
    count: numbers.length,
  }),
});
