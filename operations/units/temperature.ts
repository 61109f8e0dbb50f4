import { arithmeticResult, CalculationError, decimal, defineOperation, Exact, z } from "#kit";
import { conversionCost, conversionOutput, EXACTNESS } from "./_units.js";

/**
 * Each scale as its degree in kelvins (`numerator / denominator`) and its absolute zero in
 * its own degrees: kelvin = (t + zero) × degree.
 */
const SCALES = {
  celsius: { numerator: 1, denominator: 1, zero: "273.15" },
  fahrenheit: { numerator: 5, denominator: 9, zero: "459.67" },
  kelvin: { numerator: 1, denominator: 1, zero: "0" },
  rankine: { numerator: 5, denominator: 9, zero: "0" },
} as const;
type Scale = keyof typeof SCALES;
const IDS = Object.keys(SCALES) as [Scale, ...Scale[]];

export default defineOperation({
  area: "units",
  name: "temperature",
  summary: "Convert temperatures between Celsius, Fahrenheit, kelvin and Rankine, exactly",
  description: [
    "Converts a temperature between scales by their exact definitions: K = °C + 273.15, " +
      "°F = °C × 9/5 + 32, °R = K × 9/5. The conversion is affine: 0 °C is 32 °F, and a " +
      "temperature below absolute zero (−273.15 °C, −459.67 °F, 0 K, 0 °R) is a 422.",
    "With `difference=true`, `value` is a temperature difference (an interval) instead, converted " +
      "by the size of the degrees alone: a rise of 10 °C is a rise of 18 °F and of 10 K; any sign " +
      "is allowed.",
    EXACTNESS,
  ].join("\n\n"),
  input: z.object({
    value: decimal({ description: "The temperature (or, with `difference`, the interval)." }),
    from: z.enum(IDS).describe("The scale `value` is in."),
    to: z.enum(IDS).describe("The scale to convert to."),
    difference: z
      .boolean()
      .default(false)
      .describe("Convert a temperature difference rather than a temperature (default false)."),
  }),
  output: conversionOutput(IDS),
  examples: [
    {
      title: "Body temperature in Fahrenheit",
      input: { value: "37", from: "celsius", to: "fahrenheit" },
      output: { result: 98.6, decimal: "98.6", isExact: true, from: "celsius", to: "fahrenheit" },
    },
    {
      title: "Room temperature in Celsius does not terminate",
      input: { value: "70", from: "fahrenheit", to: "celsius" },
      output: {
        result: 21.11111111111111,
        decimal: "21.111111111111111111111111111111111111111111111111",
        isExact: false,
        from: "fahrenheit",
        to: "celsius",
      },
    },
    {
      title: "A rise of 10 °C is a rise of 18 °F",
      input: { value: "10", from: "celsius", to: "fahrenheit", difference: true },
      output: { result: 18, decimal: "18", isExact: true, from: "celsius", to: "fahrenheit" },
    },
  ],
  cost: ({ value }) => conversionCost(value),
  handler: ({ value, from, to, difference }) => {
    const source = SCALES[from];
    const target = SCALES[to];
    // The ratio of the degrees, p/q: 1, 5/9 or 9/5.
    const p = source.numerator * target.denominator;
    const q = source.denominator * target.numerator;
    const fromZero = difference ? value : value.plus(source.zero);
    if (!difference && fromZero.isNegative() && !fromZero.isZero()) {
      throw new CalculationError(
        `${value.toFixed()} ${from} is below absolute zero, ${source.zero === "0" ? "0" : `−${source.zero}`} ${from}`,
        ["value"],
      );
    }
    // result = (t + zero) × p/q − zero′ = ((t + zero) × p − zero′ × q) / q: one division.
    const numerator = difference
      ? fromZero.times(p)
      : fromZero.times(p).minus(new Exact(target.zero).times(q));
    const converted = numerator.div(q);
    return {
      ...arithmeticResult(converted),
      isExact: converted.times(q).eq(numerator),
      from,
      to,
    };
  },
});
