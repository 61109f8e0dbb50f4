import { defineOperation } from "#kit";
import { EXACTNESS, linearConversion, type Unit, unitTable } from "./_units.js";

/** Each unit in metres, exactly (definitions in the table of the description). */
const UNITS = {
  m: { factor: "1", name: "metre" },
  km: { factor: "1000", name: "kilometre" },
  cm: { factor: "0.01", name: "centimetre" },
  mm: { factor: "0.001", name: "millimetre" },
  um: { factor: "0.000001", name: "micrometre" },
  nm: { factor: "0.000000001", name: "nanometre" },
  in: { factor: "0.0254", name: "inch (international, 1959)" },
  ft: { factor: "0.3048", name: "foot (international)" },
  yd: { factor: "0.9144", name: "yard (international)" },
  mi: { factor: "1609.344", name: "mile (international statute mile)" },
  nmi: { factor: "1852", name: "nautical mile (international)" },
  mil: { factor: "0.0000254", name: "mil, thou (1/1000 inch)" },
  fathom: { factor: "1.8288", name: "fathom (6 feet)" },
  furlong: { factor: "201.168", name: "furlong (660 feet)" },
  au: { factor: "149597870700", name: "astronomical unit (IAU 2012)" },
  ly: { factor: "9460730472580800", name: "light-year (Julian year × c)" },
} as const satisfies Record<string, Unit>;

export default defineOperation({
  area: "units",
  name: "length",
  summary: "Convert lengths (metric, imperial/US, nautical, astronomical), exactly",
  description: [
    "Converts `value` from one unit of length to another. Every factor is exact by definition: the inch is 0.0254 m (1959 international yard and pound), the nautical mile 1852 m, the astronomical unit 149,597,870,700 m (IAU 2012) and the light-year 9,460,730,472,580,800 m (a Julian year at the speed of light).",
    unitTable(UNITS, "metres"),
    EXACTNESS,
  ].join("\n\n"),
  ...linearConversion(UNITS),
  examples: [
    {
      title: "26 miles 385 yards (a marathon) in kilometres",
      input: { value: "26.21875", from: "mi", to: "km" },
      output: { result: 42.194988, decimal: "42.194988", isExact: true, from: "mi", to: "km" },
    },
    {
      title: "One metre in feet does not terminate",
      input: { value: "1", from: "m", to: "ft" },
      output: {
        result: 3.2808398950131235,
        decimal: "3.2808398950131233595800524934383202099737532808399",
        isExact: false,
        from: "m",
        to: "ft",
      },
    },
  ],
});
