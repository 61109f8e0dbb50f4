import {
  arithmeticFields,
  arithmeticResult,
  decimal,
  defineOperation,
  Exact,
  ITEM_WORK,
  integer,
  MAX_RESULT_DIGITS,
  z,
} from "#kit";

const MODES = ["half-even", "half-up", "half-down", "up", "down", "ceiling", "floor"] as const;
type Mode = (typeof MODES)[number];

/** decimal.js's rounding modes, by this operation's names. */
const ROUNDING: Record<Mode, Parameters<Exact["toDecimalPlaces"]>[1]> = {
  "half-even": Exact.ROUND_HALF_EVEN,
  "half-up": Exact.ROUND_HALF_UP,
  "half-down": Exact.ROUND_HALF_DOWN,
  up: Exact.ROUND_UP,
  down: Exact.ROUND_DOWN,
  ceiling: Exact.ROUND_CEIL,
  floor: Exact.ROUND_FLOOR,
};

const MAX_PLACES = 1000;

export default defineOperation({
  area: "math",
  name: "round",
  summary: "Round a decimal to a number of places with a chosen rounding mode, exactly",
  description: [
    "Rounds `number` to `places` digits after the decimal point (default 0) in exact decimal",
    "arithmetic: `2.675` to 2 places is `2.68` half-up, never `2.67` as binary floating",
    "point gives. A negative `places` rounds to tens (−1), hundreds (−2), and so on.",
    "",
    "`mode` (default `half-even`) says which way to go:",
    "",
    "| mode | rule | 2.5 | −2.5 | 2.4 | −2.6 |",
    "|---|---|---|---|---|---|",
    "| `half-even` | nearest; a tie goes to the even neighbour (banker's rounding) | 2 | −2 | 2 | −3 |",
    "| `half-up` | nearest; a tie goes away from zero (school rounding) | 3 | −3 | 2 | −3 |",
    "| `half-down` | nearest; a tie goes toward zero | 2 | −2 | 2 | −3 |",
    "| `up` | away from zero | 3 | −3 | 3 | −3 |",
    "| `down` | toward zero (truncation) | 2 | −2 | 2 | −2 |",
    "| `ceiling` | toward +∞ | 3 | −2 | 3 | −2 |",
    "| `floor` | toward −∞ | 2 | −3 | 2 | −3 |",
    "",
    "`decimal` is the rounded value in plain notation without trailing zeros and `result` the",
    "nearest double; `fixed` is the same value written with exactly `places` digits after the",
    "point (`2.50`), or as `decimal` when `places` is 0 or negative. A result that rounds to",
    "zero is written `0` (no `-0`). `places` runs from −1,000 to 1,000. Rounding to more places",
    "than the number has changes nothing (`fixed` pads it with zeros).",
  ].join("\n"),
  input: z.object({
    number: decimal({ description: "The number to round." }),
    places: integer({
      min: -MAX_PLACES,
      max: MAX_PLACES,
      description: "Digits kept after the point (default 0); negative rounds to tens, hundreds…",
    }).default(0),
    mode: z
      .enum(MODES)
      .default("half-even")
      .describe("The rounding mode (default `half-even`); see the table."),
  }),
  output: z.object({
    ...arithmeticFields,
    fixed: z
      .string()
      .describe("The rounded value with exactly `places` digits after the point (when positive)."),
    places: z.int().describe("The places rounded to."),
    mode: z.enum(MODES).describe("The rounding mode used."),
  }),
  examples: [
    {
      title: "Half-up to 2 places, exactly (binary floating point gives 2.67)",
      input: { number: "2.675", places: 2, mode: "half-up" },
      output: { result: 2.68, decimal: "2.68", fixed: "2.68", places: 2, mode: "half-up" },
    },
    {
      title: "Banker's rounding by default",
      input: { number: "2.5" },
      output: { result: 2, decimal: "2", fixed: "2", places: 0, mode: "half-even" },
    },
    {
      title: "Trailing zeros kept in fixed",
      input: { number: "1.5", places: 3 },
      output: { result: 1.5, decimal: "1.5", fixed: "1.500", places: 3, mode: "half-even" },
    },
    {
      title: "To the nearest hundred, toward −∞",
      input: { number: "-1234.5", places: -2, mode: "floor" },
      output: { result: -1300, decimal: "-1300", fixed: "-1300", places: -2, mode: "floor" },
    },
  ],
  // One pass over at most 10,000 digits; up to three copies of a 10,000-digit value and
  // 1,000 padding zeros in the answer.
  cost: () => ({
    work: 20 * ITEM_WORK,
    bytes: 3 * (MAX_RESULT_DIGITS + MAX_PLACES + 3) + 128,
  }),
  handler: ({ number, places, mode }) => {
    const rounding = ROUNDING[mode];
    let rounded: Exact;
    if (places >= 0) {
      rounded = number.toDecimalPlaces(places, rounding);
    } else {
      // Dividing by a power of ten only moves the point: exact.
      const scale = new Exact(`1e${-places}`);
      rounded = number.div(scale).toDecimalPlaces(0, rounding).times(scale);
    }
    if (rounded.isZero()) rounded = new Exact(0);
    const answer = arithmeticResult(rounded);
    return {
      ...answer,
      fixed: places > 0 ? rounded.toFixed(places) : answer.decimal,
      places,
      mode,
    };
  },
});
