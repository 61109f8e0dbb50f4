import { decimal, defineOperation, Exact, nearestDouble, nearestDoubleField, z } from "#kit";

export default defineOperation({
  area: "math",
  name: "is-between",
  summary: "Whether a number lies between two bounds, compared exactly",
  description:
    "Tells whether `number` lies between `lower` and `upper`. The bounds may come in either order: " +
    "the smaller of the two is the lower bound. With `inclusive=true` (the default) a number equal to " +
    "a bound counts as between; with `inclusive=false` it does not, so nothing lies strictly between " +
    "two equal bounds.\n\n" +
    "The comparison is exact, in arbitrary-precision decimal: `9007199254740993` is not between " +
    "`9007199254740992` and `9007199254740992`, although all three are the same double. `-0` equals `0`. " +
    "The three numbers are echoed as given (not reordered) as the doubles nearest to them, `null` " +
    "beyond the double range.",
  input: z.object({
    number: decimal({ description: "The number to test." }),
    lower: decimal({ description: "One bound of the interval (either bound may be the larger)." }),
    upper: decimal({ description: "The other bound of the interval." }),
    inclusive: z
      .boolean()
      .default(true)
      .describe("Whether a number equal to a bound counts as between (default true)."),
  }),
  output: z.object({
    number: nearestDoubleField("`number`"),
    lower: nearestDoubleField("`lower` as given"),
    upper: nearestDoubleField("`upper` as given"),
    inclusive: z.boolean().describe("Whether the bounds themselves counted as between."),
    isBetween: z.boolean().describe("Whether `number` lies between the bounds."),
  }),
  examples: [
    {
      title: "Inside the interval",
      input: { number: "5", lower: "1", upper: "10" },
      output: { number: 5, lower: 1, upper: 10, inclusive: true, isBetween: true },
    },
    {
      title: "Bounds in reverse order",
      input: { number: "0.3", lower: "0.5", upper: "0.1" },
      output: { number: 0.3, lower: 0.5, upper: 0.1, inclusive: true, isBetween: true },
    },
    {
      title: "On a bound, exclusive",
      input: { number: "10", lower: "1", upper: "10", inclusive: false },
      output: { number: 10, lower: 1, upper: 10, inclusive: false, isBetween: false },
    },
    {
      title: "Exact beyond 2^53, where doubles cannot tell the numbers apart",
      input: { number: "9007199254740993", lower: "9007199254740992", upper: "9007199254740992" },
      output: {
        number: 9007199254740992,
        lower: 9007199254740992,
        upper: 9007199254740992,
        inclusive: true,
        isBetween: false,
      },
    },
  ],
  handler: ({ number, lower, upper, inclusive }) => {
    const low = Exact.min(lower, upper);
    const high = Exact.max(lower, upper);
    const aboveLow = number.cmp(low);
    const belowHigh = high.cmp(number);
    const isBetween = inclusive ? aboveLow >= 0 && belowHigh >= 0 : aboveLow > 0 && belowHigh > 0;
    return {
      number: nearestDouble(number),
      lower: nearestDouble(lower),
      upper: nearestDouble(upper),
      inclusive,
      isBetween,
    };
  },
});
