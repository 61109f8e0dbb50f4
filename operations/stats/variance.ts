import {
  arithmeticFields,
  arithmeticResult,
  decimals,
  defineOperation,
  ITEM_WORK,
  MAX_RESULT_DIGITS,
  z,
} from "#kit";
import { quotient, VARIANCE_KINDS, varianceRatio, varianceWork } from "./_moments.js";

export default defineOperation({
  area: "stats",
  name: "variance",
  summary: "Variance of a list of numbers (sample or population), exactly",
  description: [
    "The variance of 1 to 10,000 numbers, computed exactly as the rational",
    "`(n·Σx² − (Σx)²) / (n·d)`: with `kind=sample` (the default) d is n − 1 (Bessel's",
    "correction: Excel's VAR.S, R's `var`, Python's `statistics.variance`), with",
    "`kind=population` d is n (VAR.P, `statistics.pvariance`, NumPy's default). The sample",
    "variance needs at least two numbers; one number is refused with a 422.",
    "",
    "When the quotient terminates (within 10,000 digits) `decimal` is exact and `isExact` is",
    "true; otherwise it is correctly rounded, half to even, to 50 significant digits and",
    "`isExact` is false. `result` is the double nearest to `decimal`. Numbers whose squares",
    "would need more than 10,000 digits (a span of over 4,995 digits between the largest",
    "integer part and the longest fraction) are refused with a 422. For the standard",
    "deviation, see `stats/standard-deviation`.",
  ].join("\n"),
  input: z.object({
    numbers: decimals({ min: 1, max: 10_000, description: "The numbers." }),
    kind: z
      .enum(VARIANCE_KINDS)
      .default("sample")
      .describe("`sample` (divide by n − 1, the default) or `population` (divide by n)."),
  }),
  output: z.object({
    ...arithmeticFields,
    isExact: z.boolean().describe("Whether `decimal` is the exact variance (false when rounded)."),
    kind: z.enum(VARIANCE_KINDS).describe("Which variance was computed."),
    count: z.int().describe("How many numbers were given."),
  }),
  examples: [
    {
      title: "Sample variance",
      input: { numbers: ["2", "4", "4", "4", "5", "5", "7", "9"] },
      output: {
        result: 4.571428571428571,
        decimal: "4.5714285714285714285714285714285714285714285714286",
        isExact: false,
        kind: "sample",
        count: 8,
      },
    },
    {
      title: "Population variance",
      input: { numbers: ["2", "4", "4", "4", "5", "5", "7", "9"], kind: "population" },
      output: { result: 4, decimal: "4", isExact: true, kind: "population", count: 8 },
    },
    {
      title: "Exact where doubles are not",
      input: { numbers: ["0.1", "0.2", "0.3"] },
      output: { result: 0.01, decimal: "0.01", isExact: true, kind: "sample", count: 3 },
    },
  ],
  cost: ({ numbers }) => ({
    work: varianceWork(numbers) + 100 * ITEM_WORK,
    bytes: 2 * (MAX_RESULT_DIGITS + 2) + 128,
    loc: ["numbers"],
  }),
  handler: ({ numbers, kind }) => {
    const { numerator, denominator } = varianceRatio(numbers, kind);
    const variance = quotient(numerator, denominator);
    return {
      ...arithmeticResult(variance.value),
      isExact: variance.isExact,
      kind,
      count: numbers.length,
    };
  },
});
