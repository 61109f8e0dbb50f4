import {
  arithmeticFields,
  arithmeticResult,
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
  name: "percentage",
  summary: "x % of y, exactly",
  description: [
    "Computes `percent` % of `of`, that is `percent × of / 100`, in exact decimal arithmetic:",
    "15 % of 19.99 is exactly `2.9985`. Dividing by 100 always terminates, so the answer is",
    "always exact. Either number may be negative, zero, or have a fraction (`0.5` % of 200",
    "is `1`; 250 % of 8 is `20`).",
    "",
    "`decimal` holds the answer in plain notation and `result` the nearest double (`null`",
    "beyond the double range); `percent` and `of` are echoed as the nearest doubles. An",
    "answer needing more than 10,000 digits in plain notation is refused with a 422.",
    "For the change from one value to another in percent, see `math/percent-change`.",
  ].join("\n"),
  input: z.object({
    percent: decimal({ description: "The percentage to take (`15` is 15 %)." }),
    of: decimal({ description: "The value it is a percentage of." }),
  }),
  output: z.object({
    percent: nearestDoubleField("`percent`"),
    of: nearestDoubleField("`of`"),
    ...arithmeticFields,
  }),
  examples: [
    {
      title: "15 % of 19.99",
      input: { percent: "15", of: "19.99" },
      output: { percent: 15, of: 19.99, result: 2.9985, decimal: "2.9985" },
    },
    {
      title: "Over 100 %",
      input: { percent: "250", of: "8" },
      output: { percent: 250, of: 8, result: 20, decimal: "20" },
    },
    {
      title: "Exact where doubles are not (0.1 % of 0.3)",
      input: { percent: "0.1", of: "0.3" },
      output: { percent: 0.1, of: 0.3, result: 0.0003, decimal: "0.0003" },
    },
  ],
  // One product of two literals of at most 100 digits; an answer of at most 10,000 digits.
  cost: () => ({ work: 5 * ITEM_WORK, bytes: 2 * (MAX_RESULT_DIGITS + 3) + 128 }),
  handler: ({ percent, of }) => ({
    percent: nearestDouble(percent),
    of: nearestDouble(of),
    ...arithmeticResult(percent.times(of).div(100)),
  }),
});
