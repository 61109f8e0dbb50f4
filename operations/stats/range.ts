import {
  arithmeticFields,
  arithmeticResult,
  decimals,
  defineOperation,
  ITEM_WORK,
  MAX_RESULT_DIGITS,
  nearestDouble,
  nearestDoubleField,
  toPlain,
  z,
} from "#kit";

export default defineOperation({
  area: "stats",
  name: "range",
  summary: "Range of a list of numbers (max − min), exactly",
  description:
    "Finds the smallest and the largest of 1 to 10,000 decimal numbers, comparing them exactly, and " +
    "answers their difference `max − min` in arbitrary-precision decimal: the range of `0.1` and `0.3` " +
    "is exactly `0.2`. A single number has range `0`.\n\n" +
    "`min` and `max` are the doubles nearest to the extremes (`null` beyond the double range); " +
    "`minDecimal` and `maxDecimal` hold them exactly in plain notation, as `decimal` holds the range. " +
    "A range whose plain notation needs more than 10,000 digits (`6e9999` and `-6e9999`) is refused " +
    "with a 422. Send the list as repeated parameters " +
    "(`numbers=1&numbers=2`), comma-separated (`numbers=1,2`), or both.",
  input: z.object({
    numbers: decimals({ min: 1, max: 10_000, description: "The numbers to measure." }),
  }),
  output: z.object({
    ...arithmeticFields,
    min: nearestDoubleField("the smallest number"),
    max: nearestDoubleField("the largest number"),
    minDecimal: z.string().describe("The smallest number, exactly, in plain notation."),
    maxDecimal: z.string().describe("The largest number, exactly, in plain notation."),
    count: z.int().describe("How many numbers were given."),
  }),
  examples: [
    {
      title: "Decimal fractions subtract exactly",
      input: { numbers: ["0.3", "0.1", "0.2"] },
      output: {
        result: 0.2,
        decimal: "0.2",
        min: 0.1,
        max: 0.3,
        minDecimal: "0.1",
        maxDecimal: "0.3",
        count: 3,
      },
    },
    {
      title: "Negative numbers and exponents",
      input: { numbers: ["-2.5", "1e3", "7"] },
      output: {
        result: 1002.5,
        decimal: "1002.5",
        min: -2.5,
        max: 1000,
        minDecimal: "-2.5",
        maxDecimal: "1000",
        count: 3,
      },
    },
    {
      title: "A single number has range 0",
      input: { numbers: ["42"] },
      output: {
        result: 0,
        decimal: "0",
        min: 42,
        max: 42,
        minDecimal: "42",
        maxDecimal: "42",
        count: 1,
      },
    },
  ],
  // One comparison per number; three decimals of at most 10,000 digits each in the answer.
  cost: ({ numbers }) => ({
    work: numbers.length * ITEM_WORK,
    bytes: 3 * (MAX_RESULT_DIGITS + 2) + 256,
    loc: ["numbers"],
  }),
  handler: ({ numbers }) => {
    let low = 0;
    let high = 0;
    for (let i = 1; i < numbers.length; i++) {
      if (numbers.compare(i, low) < 0) low = i;
      else if (numbers.compare(i, high) > 0) high = i;
    }
    const min = numbers.at(low);
    const max = numbers.at(high);
    return {
      ...arithmeticResult(max.minus(min)),
      min: nearestDouble(min),
      max: nearestDouble(max),
      minDecimal: toPlain(min),
      maxDecimal: toPlain(max),
      count: numbers.length,
    };
  },
});
