import {
  arithmeticResult,
  assertWritable,
  CalculationError,
  decimal,
  decimals,
  defineOperation,
  Exact,
  ITEM_WORK,
  list,
  MAX_RESULT_DIGITS,
  toPlain,
  z,
} from "#kit";
import { sortedIndexes } from "./_moments.js";

const METHODS = ["linear", "nearest-rank"] as const;
const MAX_PERCENTILES = 100;
const MAX_NUMBERS = 10_000 - MAX_PERCENTILES;
const HUNDRED = new Exact(100);

export default defineOperation({
  area: "stats",
  name: "percentile",
  summary: "Percentiles of a list of numbers (linear interpolation or nearest rank)",
  description: [
    "The `percentiles` (each 0 to 100, up to 100 of them) of 1 to 9,900 numbers, sorted and",
    "compared exactly. Two definitions:",
    "",
    "- `linear` (the default): linear interpolation between closest ranks, Hyndman and Fan's",
    "  type 7, as Excel's PERCENTILE.INC, R's `quantile` default and NumPy's default. With the",
    "  numbers sorted as x₀ ≤ … ≤ xₙ₋₁ and h = (n − 1)·p / 100, the p-th percentile is",
    "  x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋). The 0th is the minimum, the 100th the maximum, the",
    "  50th the median. The arithmetic is exact decimal, so the answer is exact.",
    "- `nearest-rank`: the smallest number with at least p % of the numbers at or below it,",
    "  x₍⌈p·n/100⌉₋₁₎ (the 0th is the minimum): always one of the numbers.",
    "",
    "`values` answers the percentiles in the order asked, each with `decimal` (exact, plain",
    "notation) and `result` (the nearest double). A percentile outside 0 to 100 is refused with",
    "a 422 at its index. Send lists as repeated parameters, comma-separated, or both.",
  ].join("\n"),
  input: z.object({
    // With up to 100 percentiles, a request stays within 10,000 list items (GraphQL's limit).
    numbers: decimals({ min: 1, max: MAX_NUMBERS, description: "The numbers: 1 to 9,900." }),
    percentiles: list(decimal(), {
      min: 1,
      max: MAX_PERCENTILES,
      description: "The percentiles wanted, each from 0 to 100 (`50` is the median).",
    }),
    method: z
      .enum(METHODS)
      .default("linear")
      .describe("`linear` (R-7, Excel PERCENTILE.INC; the default) or `nearest-rank`."),
  }),
  output: z.object({
    values: z
      .array(
        z.object({
          percentile: z.string().describe("The percentile asked for, in plain notation."),
          result: z.number().nullable().describe("The double nearest to the value."),
          decimal: z.string().describe("The value, exactly, in plain notation."),
        }),
      )
      .describe("One entry per percentile asked for, in order."),
    method: z.enum(METHODS).describe("The definition used."),
    count: z.int().describe("How many numbers were given."),
  }),
  examples: [
    {
      title: "Quartiles by linear interpolation (Excel PERCENTILE.INC)",
      input: { numbers: ["1", "2", "3", "4"], percentiles: ["25", "50", "75"] },
      output: {
        values: [
          { percentile: "25", result: 1.75, decimal: "1.75" },
          { percentile: "50", result: 2.5, decimal: "2.5" },
          { percentile: "75", result: 3.25, decimal: "3.25" },
        ],
        method: "linear",
        count: 4,
      },
    },
    {
      title: "Nearest rank: always one of the numbers",
      input: {
        numbers: ["15", "20", "35", "40", "50"],
        percentiles: ["30", "40", "100"],
        method: "nearest-rank",
      },
      output: {
        values: [
          { percentile: "30", result: 20, decimal: "20" },
          { percentile: "40", result: 20, decimal: "20" },
          { percentile: "100", result: 50, decimal: "50" },
        ],
        method: "nearest-rank",
        count: 5,
      },
    },
  ],
  // A sort (under 2 µs a number), then per percentile a product of the fraction (at most
  // about 105 digits) by a difference spanning the numbers' digits.
  cost: ({ numbers, percentiles }) => {
    const span = numbers.digitSpan();
    return {
      work: numbers.length * 2 * ITEM_WORK + percentiles.length * (ITEM_WORK + 40 * (span + 120)),
      bytes: percentiles.length * (2 * (MAX_RESULT_DIGITS + 200) + 64) + 128,
      loc: ["numbers"],
    };
  },
  handler: ({ numbers, percentiles, method }) => {
    const order = sortedIndexes(numbers);
    const n = numbers.length;
    const at = (rank: number) => numbers.at(order[rank] ?? 0);
    const values = percentiles.map((p, index) => {
      if (p.lt(0) || p.gt(HUNDRED)) {
        throw new CalculationError(`a percentile is from 0 to 100, not ${toPlain(p)}`, [
          "percentiles",
          String(index),
        ]);
      }
      let value: Exact;
      if (method === "nearest-rank") {
        const rank = p.times(n).div(100).ceil().toNumber();
        value = at(Math.max(rank, 1) - 1);
      } else {
        const h = p.times(n - 1).div(100);
        const low = h.floor().toNumber();
        const fraction = h.minus(low);
        value = at(low);
        if (!fraction.isZero()) value = value.plus(fraction.times(at(low + 1).minus(value)));
      }
      assertWritable(value);
      const answer = arithmeticResult(value);
      return { percentile: toPlain(p), result: answer.result, decimal: answer.decimal };
    });
    return { values, method, count: n };
  },
});
