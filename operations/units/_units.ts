/**
 * Unit conversions with exact rational factors, shared by the `units/` operations: each
 * unit is an exact decimal multiple of its quantity's base unit (a metre, a kilogram, a
 * litre, a bit), so a conversion is one product and one division, exact whenever the
 * quotient terminates.
 */
import {
  arithmeticFields,
  arithmeticResult,
  type Cost,
  decimal,
  digitSpan,
  type Exact,
  ITEM_WORK,
  MAX_RESULT_DIGITS,
  z,
} from "#kit";

export interface Unit {
  /** How many base units one of this unit is, as an exact decimal literal. */
  factor: string;
  /** What it is, for the documentation table. */
  name: string;
}

/** `value` `from` in `to`: `value × factor(from) / factor(to)`, and whether it is exact. */
export function convertLinear(
  value: Exact,
  from: Unit,
  to: Unit,
): { result: number | null; decimal: string; isExact: boolean } {
  const inBase = value.times(from.factor);
  const converted = inBase.div(to.factor);
  return { ...arithmeticResult(converted), isExact: converted.times(to.factor).eq(inBase) };
}

/** The Markdown table of a quantity's units. */
export function unitTable(units: Record<string, Unit>, base: string): string {
  return [
    `| unit | name | in ${base} |`,
    "|---|---|---|",
    ...Object.entries(units).map(([id, unit]) => `| \`${id}\` | ${unit.name} | ${unit.factor} |`),
  ].join("\n");
}

/** The output of every conversion. */
export function conversionOutput<const Ids extends readonly [string, ...string[]]>(ids: Ids) {
  return z.object({
    ...arithmeticFields,
    isExact: z
      .boolean()
      .describe(
        "True when `decimal` is exact; false when the quotient does not terminate and `decimal` is rounded to 50 significant digits.",
      ),
    from: z.enum(ids).describe("The unit converted from."),
    to: z.enum(ids).describe("The unit converted to."),
  });
}

/** What rounding a conversion's `decimal` may carry, for descriptions. */
export const EXACTNESS =
  "`decimal` is exact whenever the converted value terminates in decimal (`isExact` true); " +
  "otherwise (feet to metres is exact, metres to feet divides by 0.3048) it is correctly rounded " +
  "to 50 significant digits, half to even, and `isExact` is false. `result` is the nearest " +
  "double. A value whose plain notation would need more than 10,000 digits is a 422.";

/**
 * The cost of converting `value`: a product and a quotient of at most 10,000 digits (the
 * kit bounds the division), and an answer that may be that long, twice.
 */
export function conversionCost(value: Exact): Cost {
  const span = digitSpan([value]);
  return {
    work: 20 * ITEM_WORK + span * 200,
    bytes: 2 * (Math.min(MAX_RESULT_DIGITS, span + 100) + 2) + 256,
    loc: ["value"],
  };
}

/**
 * The input, output, cost and handler of a linear conversion between `units`: what every
 * quantity but temperature declares alike, each module adding its names and examples.
 */
export function linearConversion<const Units extends Record<string, Unit>>(units: Units) {
  const ids = Object.keys(units) as [keyof Units & string, ...(keyof Units & string)[]];
  return {
    input: z.object({
      value: decimal({ description: "The amount to convert, a decimal literal." }),
      from: z.enum(ids).describe("The unit `value` is in."),
      to: z.enum(ids).describe("The unit to convert to."),
    }),
    output: conversionOutput(ids),
    cost: ({ value }: { value: Exact }) => conversionCost(value),
    handler: ({
      value,
      from,
      to,
    }: {
      value: Exact;
      from: keyof Units & string;
      to: keyof Units & string;
    }) => ({
      ...convertLinear(value, units[from] as Unit, units[to] as Unit),
      from,
      to,
    }),
  };
}
