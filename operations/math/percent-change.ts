import {
  arithmeticFields,
  arithmeticResult,
  CalculationError,
  decimal,
  defineOperation,
  ITEM_WORK,
  MAX_RESULT_DIGITS,
  nearestDouble,
  nearestDoubleField,
  z,
} from "#kit";

export default defineOperation({
  area: "math",
  name: "percent-change",
  summary: "Percent change from one value to another",
  description: [
    "The relative change from `from` to `to`, in percent: `(to − from) / |from| × 100`. From",
    "50 to 65 is `30` (an increase of 30 %), from 80 to 60 is `-25`. Dividing by the absolute",
    "value of `from` keeps the sign meaningful when `from` is negative: from −100 to −50 is",
    "`50`, an increase.",
    "",
    "The arithmetic is exact decimal. When the quotient terminates (within 10,000 digits)",
    "`decimal` is exact and `isExact` is true; otherwise (from 3 to 4 is 33.33…) it is",
    "correctly rounded, half to even, to 50 significant digits and `isExact` is false.",
    "`result` is the double nearest to `decimal`. A change from `0` is undefined and refused",
    "with a 422 at `from`. For x % of y, see `math/percentage`.",
  ].join("\n"),
  input: z.object({
    from: decimal({ description: "The value before (must not be 0)." }),
    to: decimal({ description: "The value after." }),
  }),
  output: z.object({
    from: nearestDoubleField("`from`"),
    to: nearestDoubleField("`to`"),
    ...arithmeticFields,
    isExact: z
      .boolean()
      .describe("Whether `decimal` is the exact change (false when rounded to 50 digits)."),
  }),
  examples: [
    {
      title: "An increase",
      input: { from: "50", to: "65" },
      output: { from: 50, to: 65, result: 30, decimal: "30", isExact: true },
    },
    {
      title: "A decrease",
      input: { from: "80", to: "60" },
      output: { from: 80, to: 60, result: -25, decimal: "-25", isExact: true },
    },
    {
      title: "A change that does not terminate is rounded to 50 digits",
      input: { from: "3", to: "4" },
      output: {
        from: 3,
        to: 4,
        result: 33.333333333333336,
        decimal: "33.333333333333333333333333333333333333333333333333",
        isExact: false,
      },
    },
    {
      title: "From a negative value, toward zero is an increase",
      input: { from: "-100", to: "-50" },
      output: { from: -100, to: -50, result: 50, decimal: "50", isExact: true },
    },
  ],
  // A difference and a quotient of literals of at most 100 digits (the kit bounds the
  // quotient at 10,000 digits); an answer of at most 10,000 digits.
  cost: () => ({ work: 200 * ITEM_WORK, bytes: 2 * (MAX_RESULT_DIGITS + 3) + 128 }),
  handler: ({ from, to }) => {
    if (from.isZero()) {
      throw new CalculationError("the change from 0 is undefined (division by zero)", ["from"]);
    }
    const numerator = to.minus(from).times(100);
    const divisor = from.abs();
    const change = numerator.div(divisor);
    return {
      from: nearestDouble(from),
      to: nearestDouble(to),
      ...arithmeticResult(change),
      // A rounded quotient times the divisor never gives back the numerator exactly.
      isExact: change.times(divisor).eq(numerator),
    };
  },
});
