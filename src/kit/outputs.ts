/** Output fields shared by many operations, so every arithmetic response reads alike. */
import { z } from "zod";

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
