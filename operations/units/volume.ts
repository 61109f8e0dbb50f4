import { defineOperation } from "#kit";
import { EXACTNESS, linearConversion, type Unit, unitTable } from "./_units.js";

/** Each unit in litres, exactly (definitions in the table of the description). */
const UNITS = {
  l: { factor: "1", name: "litre" },
  ml: { factor: "0.001", name: "millilitre" },
  cl: { factor: "0.01", name: "centilitre" },
  dl: { factor: "0.1", name: "decilitre" },
  m3: { factor: "1000", name: "cubic metre" },
  cm3: { factor: "0.001", name: "cubic centimetre" },
  in3: { factor: "0.016387064", name: "cubic inch" },
  ft3: { factor: "28.316846592", name: "cubic foot" },
  us_gal: { factor: "3.785411784", name: "US gallon (231 cubic inches)" },
  us_qt: { factor: "0.946352946", name: "US liquid quart (1/4 gal)" },
  us_pt: { factor: "0.473176473", name: "US liquid pint (1/8 gal)" },
  us_cup: { factor: "0.2365882365", name: "US cup (1/16 gal)" },
  us_floz: { factor: "0.0295735295625", name: "US fluid ounce (1/128 gal)" },
  us_tbsp: { factor: "0.01478676478125", name: "US tablespoon (1/2 fl oz)" },
  us_tsp: { factor: "0.00492892159375", name: "US teaspoon (1/6 fl oz)" },
  bbl: { factor: "158.987294928", name: "oil barrel (42 US gal)" },
  imp_gal: { factor: "4.54609", name: "imperial gallon" },
  imp_qt: { factor: "1.1365225", name: "imperial quart (1/4 gal)" },
  imp_pt: { factor: "0.56826125", name: "imperial pint (1/8 gal)" },
  imp_floz: { factor: "0.0284130625", name: "imperial fluid ounce (1/160 gal)" },
} as const satisfies Record<string, Unit>;

export default defineOperation({
  area: "units",
  name: "volume",
  summary: "Convert volumes (metric, US customary, imperial), exactly",
  description: [
    "Converts `value` from one unit of volume to another. Every factor is exact by definition: the US gallon is 231 cubic inches (3.785411784 L) with its quart, pint, cup, fluid ounce, tablespoon and teaspoon as exact fractions of it; the imperial gallon is 4.54609 L; the oil barrel 42 US gallons.",
    unitTable(UNITS, "litres"),
    EXACTNESS,
  ].join("\n\n"),
  ...linearConversion(UNITS),
  examples: [
    {
      title: "A US gallon in litres",
      input: { value: "1", from: "us_gal", to: "l" },
      output: {
        result: 3.785411784,
        decimal: "3.785411784",
        isExact: true,
        from: "us_gal",
        to: "l",
      },
    },
    {
      title: "Three US teaspoons are one tablespoon",
      input: { value: "3", from: "us_tsp", to: "us_tbsp" },
      output: { result: 1, decimal: "1", isExact: true, from: "us_tsp", to: "us_tbsp" },
    },
    {
      title: "A litre in imperial pints",
      input: { value: "1", from: "l", to: "imp_pt" },
      output: {
        result: 1.7597539863927023,
        decimal: "1.7597539863927023002184294635609941730146125571645",
        isExact: false,
        from: "l",
        to: "imp_pt",
      },
    },
  ],
});
