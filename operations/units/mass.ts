import { defineOperation } from "#kit";
import { EXACTNESS, linearConversion, type Unit, unitTable } from "./_units.js";

/** Each unit in kilograms, exactly (definitions in the table of the description). */
const UNITS = {
  kg: { factor: "1", name: "kilogram" },
  g: { factor: "0.001", name: "gram" },
  mg: { factor: "0.000001", name: "milligram" },
  ug: { factor: "0.000000001", name: "microgram" },
  t: { factor: "1000", name: "tonne (metric ton)" },
  lb: { factor: "0.45359237", name: "pound (avoirdupois, 1959)" },
  oz: { factor: "0.028349523125", name: "ounce (avoirdupois, 1/16 lb)" },
  st: { factor: "6.35029318", name: "stone (14 lb)" },
  gr: { factor: "0.00006479891", name: "grain (1/7000 lb)" },
  ct: { factor: "0.0002", name: "carat (metric, 200 mg)" },
  ozt: { factor: "0.0311034768", name: "troy ounce (480 grains)" },
  short_ton: { factor: "907.18474", name: "short ton (2000 lb)" },
  long_ton: { factor: "1016.0469088", name: "long ton (2240 lb)" },
} as const satisfies Record<string, Unit>;

export default defineOperation({
  area: "units",
  name: "mass",
  summary: "Convert masses (metric, avoirdupois, troy), exactly",
  description: [
    "Converts `value` from one unit of mass to another. Every factor is exact by definition: the avoirdupois pound is 0.45359237 kg (1959), the ounce 1/16 pound, the grain 1/7000 pound, the troy ounce 480 grains, the metric carat 200 mg.",
    unitTable(UNITS, "kilograms"),
    EXACTNESS,
  ].join("\n\n"),
  ...linearConversion(UNITS),
  examples: [
    {
      title: "A pound in grams",
      input: { value: "1", from: "lb", to: "g" },
      output: { result: 453.59237, decimal: "453.59237", isExact: true, from: "lb", to: "g" },
    },
    {
      title: "A troy ounce in avoirdupois ounces",
      input: { value: "1", from: "ozt", to: "oz" },
      output: {
        result: 1.0971428571428572,
        decimal: "1.0971428571428571428571428571428571428571428571429",
        isExact: false,
        from: "ozt",
        to: "oz",
      },
    },
  ],
});
