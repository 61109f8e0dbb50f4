/** Output fields shared by many operations, so every arithmetic response reads alike. */
import { z } from "zod";

/**
 * A JSON number field holding the double nearest to an exact value, `null` beyond range.
 *
 * @example
 * z.object({ a: nearestDoubleField("`a`") })
 */
export function nearestDoubleField(what: string) {
  return z
    .number()
    .nullable()
    .describe(`The double nearest to ${what}, or null when beyond the double range.`);
}

/** `result` and `decimal`: see {@link arithmeticResult}. Spread into an output object. */
export const arithmeticFields = {
  result: z
    .number()
    .nullable()
    .describe(
      "The double nearest to the exact value, or null when its magnitude is beyond the double range.",
    ),
  decimal: z.string().describe("The exact value in plain positional notation (never an exponent)."),
};
