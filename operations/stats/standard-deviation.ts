import { decimals, defineOperation, ITEM_WORK, integer, toPlain, z } from "#kit";
import { rootOfRatio, rootWork, VARIANCE_KINDS, varianceRatio, varianceWork } from "./_moments.js";

export default defineOperation({
  area: "stats",
  name: "standard-deviation",
  summary: "Standard deviation of a list of numbers, correctly rounded",
  description: [
    "The standard deviation of 1 to 10,000 numbers: the square root of their variance, which",
    "is computed exactly as the rational `(n·Σx² − (Σx)²) / (n·d)` (see `stats/variance`):",
    "with `kind=sample` (the default) d is n − 1 (Excel's STDEV.S, R's `sd`, Python's",
    "`statistics.stdev`), with `kind=population` d is n (STDEV.P, `statistics.pstdev`, NumPy's",
    "default). The sample standard deviation needs at least two numbers.",
    "",
    "The root is taken of the exact variance, not of a rounded one, and answered as",
    "`math/nth-root` answers: `decimal` is correctly rounded (half to even) to `precision`",
    "significant digits (1 to 100, default 20), in plain notation without trailing zeros;",
    "`result` is the double nearest to the true root; `isExact` tells whether the root is",
    "exactly `decimal` (the numbers 2, 4, 4, 4, 5, 5, 7, 9 have population standard deviation",
    "exactly 2). Numbers whose squares would need more than 10,000 digits are refused with a",
    "422, as in `stats/variance`.",
  ].join("\n"),
  input: z.object({
    numbers: decimals({ min: 1, max: 10_000, description: "The numbers." }),
    kind: z
      .enum(VARIANCE_KINDS)
      .default("sample")
      .describe("`sample` (divide by n − 1, the default) or `population` (divide by n)."),
    precision: integer({
      min: 1,
      max: 100,
      description: "Significant digits of `decimal`, 1 to 100 (default 20).",
    }).default(20),
  }),
  output: z.object({
    result: z
      .number()
      .nullable()
      .describe(
        "The double nearest to the exact standard deviation (null beyond the double range).",
      ),
    decimal: z
      .string()
      .describe("The standard deviation correctly rounded to `precision` significant digits."),
    isExact: z.boolean().describe("Whether the standard deviation is exactly `decimal`."),
    precision: z.int().describe("Significant digits `decimal` was rounded to."),
    kind: z.enum(VARIANCE_KINDS).describe("Which standard deviation was computed."),
    count: z.int().describe("How many numbers were given."),
  }),
  examples: [
    {
      title: "Population standard deviation, exact",
      input: { numbers: ["2", "4", "4", "4", "5", "5", "7", "9"], kind: "population" },
      output: {
        result: 2,
        decimal: "2",
        isExact: true,
        precision: 20,
        kind: "population",
        count: 8,
      },
    },
    {
      title: "Sample standard deviation to 20 digits",
      input: { numbers: ["2", "4", "4", "4", "5", "5", "7", "9"] },
      output: {
        result: 2.138089935299395,
        decimal: "2.1380899352993950775",
        isExact: false,
        precision: 20,
        kind: "sample",
        count: 8,
      },
    },
    {
      title: "Five significant digits",
      input: { numbers: ["1", "2"], precision: 5 },
      output: {
        result: Math.SQRT1_2,
        decimal: "0.70711",
        isExact: false,
        precision: 5,
        kind: "sample",
        count: 2,
      },
    },
  ],
  cost: ({ numbers }) => ({
    work: varianceWork(numbers) + rootWork(numbers.digitSpan()) + 100 * ITEM_WORK,
    bytes: 10_512,
    loc: ["numbers"],
  }),
  handler: ({ numbers, kind, precision }) => {
    const { numerator, denominator } = varianceRatio(numbers, kind);
    const root = rootOfRatio(numerator, denominator, precision);
    return {
      result: root.nearest,
      decimal: toPlain(root.rounded),
      isExact: root.isExact,
      precision,
      kind,
      count: numbers.length,
    };
  },
});
