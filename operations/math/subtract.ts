import {
  arithmeticFields,
  arithmeticResult,
  decimal,
  defineOperation,
  digitSpan,
  nearestDouble,
  nearestDoubleField,
  z,
} from "#kit";

export default defineOperation({
  area: "math",
  name: "subtract",
  summary: "Difference a − b, exactly",
  description:
    "Subtracts `b` from `a` in arbitrary-precision decimal arithmetic, so `0.3 − 0.1` is exactly `0.2` " +
    "(binary floating point would give `0.19999999999999998`).\n\n" +
    "`a` and `b` are echoed as the doubles nearest to them (`null` beyond the double range); the exact " +
    "difference is in `decimal`, written in plain notation, and `result` is the double nearest to it. " +
    "A difference whose plain notation needs more than 10,000 digits (for example `1e9999 − 1e-9999`) " +
    "is refused with a 422.",
  input: z.object({
    a: decimal({ description: "The minuend: the number to subtract from." }),
    b: decimal({ description: "The subtrahend: the number to subtract." }),
  }),
  output: z.object({
    a: nearestDoubleField("`a`"),
    b: nearestDoubleField("`b`"),
    ...arithmeticFields,
  }),
  examples: [
    {
      title: "Decimal fractions subtract exactly",
      input: { a: "0.3", b: "0.1" },
      output: { a: 0.3, b: 0.1, result: 0.2, decimal: "0.2" },
    },
    {
      title: "A negative difference",
      input: { a: "1.5", b: "4" },
      output: { a: 1.5, b: 4, result: -2.5, decimal: "-2.5" },
    },
    {
      title: "Integers beyond 2^53 stay exact",
      input: { a: "9007199254740993", b: "9007199254740992" },
      output: { a: 9007199254740992, b: 9007199254740992, result: 1, decimal: "1" },
    },
  ],
  // Subtracting and writing the difference take about 100 ns a digit of the span (measured:
  // 1e9999 − 1 in ~0.9 ms); the difference is written twice (`decimal` and `result`).
  cost: ({ a, b }) => {
    const span = digitSpan([a, b]);
    return { work: span * 100, bytes: 2 * span + 128 };
  },
  handler: ({ a, b }) => ({
    a: nearestDouble(a),
    b: nearestDouble(b),
    ...arithmeticResult(a.minus(b)),
  }),
});
