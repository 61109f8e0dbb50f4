import { defineOperation, integer, z } from "#kit";
import { MAX_ROMAN, MIN_ROMAN, toRoman } from "./_roman.js";

export default defineOperation({
  area: "misc",
  name: "to-roman",
  summary: "Write a number in Roman numerals",
  description: [
    "Writes `number` (1 to 3,999) as a Roman numeral in the standard modern form: the largest",
    "symbols first (M 1000, D 500, C 100, L 50, X 10, V 5, I 1), with the subtractive pairs",
    "CM, CD, XC, XL, IX and IV for 900, 400, 90, 40, 9 and 4, and no symbol repeated more than",
    "three times: 1994 is `MCMXCIV`, 4 is `IV` (never `IIII`). Zero, negatives and numbers",
    "from 4,000 have no standard form and are refused with a 422. The inverse is",
    "`misc/from-roman`.",
  ].join("\n"),
  input: z.object({
    number: integer({ min: MIN_ROMAN, max: MAX_ROMAN, description: "The number: 1 to 3,999." }),
  }),
  output: z.object({
    number: z.int().describe("The number."),
    roman: z.string().describe("The number in Roman numerals, uppercase."),
  }),
  examples: [
    { title: "A year", input: { number: 1994 }, output: { number: 1994, roman: "MCMXCIV" } },
    { title: "The largest", input: { number: 3999 }, output: { number: 3999, roman: "MMMCMXCIX" } },
    { title: "Four", input: { number: 4 }, output: { number: 4, roman: "IV" } },
  ],
  handler: ({ number }) => ({ number, roman: toRoman(number) }),
});
