import { CalculationError, defineOperation, text, z } from "#kit";
import { CANONICAL, lenientValue, MAX_ROMAN, MIN_ROMAN, toRoman } from "./_roman.js";

export default defineOperation({
  area: "misc",
  name: "from-roman",
  summary: "Read a Roman numeral (strict canonical form)",
  description: [
    "Reads `roman`, a Roman numeral of 1 to 3,999, and answers its value: `MCMXCIV` is 1994.",
    "Upper- or lowercase letters are accepted (`mcmxciv`); the numeral is echoed in uppercase.",
    "",
    "Only the canonical form is accepted: the symbols in decreasing order, the subtractive",
    "pairs CM, CD, XC, XL, IX and IV only, no symbol repeated more than three times, and V, L",
    "and D never repeated. `IIII`, `IC`, `VX`, `XM`, `MMMM` and the like are refused with a 422",
    "that names the canonical numeral they were probably meant as when there is one (`IIII`",
    "is written `IV`). Letters other than I, V, X, L, C, D and M, spaces, and the empty string",
    "are refused too. The inverse is `misc/to-roman`.",
  ].join("\n"),
  input: z.object({
    roman: text({ min: 1, max: 32, description: "The Roman numeral, e.g. `MCMXCIV`." }),
  }),
  output: z.object({
    roman: z.string().describe("The numeral, uppercase."),
    number: z.int().describe("Its value: 1 to 3,999."),
  }),
  examples: [
    { title: "A year", input: { roman: "MCMXCIV" }, output: { roman: "MCMXCIV", number: 1994 } },
    { title: "Lowercase", input: { roman: "xlii" }, output: { roman: "XLII", number: 42 } },
  ],
  handler: ({ roman }) => {
    const numeral = roman.toUpperCase();
    if (CANONICAL.test(numeral)) {
      const value = lenientValue(numeral) ?? 0;
      return { roman: numeral, number: value };
    }
    const value = lenientValue(numeral);
    if (value === undefined) {
      throw new CalculationError(
        `'${roman}' is not a Roman numeral: only the letters I, V, X, L, C, D and M are digits`,
        ["roman"],
      );
    }
    const meant =
      value >= MIN_ROMAN && value <= MAX_ROMAN
        ? `; ${value} is written ${toRoman(value)}`
        : value > MAX_ROMAN
          ? "; numbers from 4,000 have no standard form"
          : "";
    throw new CalculationError(`'${roman}' is not a canonical Roman numeral${meant}`, ["roman"]);
  },
});
