import { defineOperation, integer, z } from "#kit";

const CALENDARS = ["gregorian", "julian"] as const;
type Calendar = (typeof CALENDARS)[number];

/**
 * `year` is a multiple of `divisor`. Only the remainder's being zero matters, and JavaScript's
 * `%` keeps the dividend's sign (`-100 % 400` is `-100`, `-400 % 400` is `-0`), so the test is
 * right for negative years too; and `%` is exact for every safe integer.
 */
const isMultipleOf = (year: number, divisor: number) => year % divisor === 0;

function isLeapYear(year: number, calendar: Calendar): boolean {
  if (!isMultipleOf(year, 4)) return false;
  if (calendar === "julian") return true;
  return !isMultipleOf(year, 100) || isMultipleOf(year, 400);
}

export default defineOperation({
  area: "datetime",
  name: "is-leap-year",
  summary: "Whether a year is a leap year (Gregorian or Julian)",
  description: [
    "Tells whether `year` is a leap year and how many days it has (366 or 365).",
    "With `calendar=gregorian` (the default) the rule of the proleptic Gregorian calendar applies to " +
      "every year, also before its introduction in 1582: a year is a leap year when it is divisible by " +
      "4, except years divisible by 100, which are leap years only when also divisible by 400 (2000 " +
      "is a leap year, 1900 is not). With `calendar=julian` every year divisible by 4 is a leap year " +
      "(so 1900 is one), the proleptic Julian calendar.",
    "Years use astronomical numbering: year 0 is 1 BC, year −1 is 2 BC, and so on. Year 0 is " +
      "therefore a leap year in both calendars, as are −4 and −400; −100 is a leap year in the Julian " +
      "calendar but not in the Gregorian one. Any integer from −9007199254740991 to " +
      "9007199254740991 (the safe-integer range) is accepted.",
  ].join("\n\n"),
  input: z.object({
    year: integer({
      description: "The year, in astronomical numbering (0 = 1 BC, −1 = 2 BC); any safe integer.",
    }),
    calendar: z
      .enum(CALENDARS)
      .describe(
        "`gregorian` (proleptic Gregorian, the default) or `julian` (proleptic Julian: every fourth year).",
      )
      .default("gregorian"),
  }),
  output: z.object({
    year: z.int().describe("The year asked about."),
    isLeapYear: z.boolean().describe("Whether the year is a leap year in `calendar`."),
    daysInYear: z.int().describe("366 in a leap year, else 365."),
    calendar: z.enum(CALENDARS).describe("The calendar whose rule was applied."),
  }),
  examples: [
    {
      title: "2000 is divisible by 400: a leap year",
      input: { year: 2000 },
      output: { year: 2000, isLeapYear: true, daysInYear: 366, calendar: "gregorian" },
    },
    {
      title: "1900 is divisible by 100 but not 400: a common year",
      input: { year: 1900 },
      output: { year: 1900, isLeapYear: false, daysInYear: 365, calendar: "gregorian" },
    },
    {
      title: "In the Julian calendar 1900 is a leap year",
      input: { year: 1900, calendar: "julian" },
      output: { year: 1900, isLeapYear: true, daysInYear: 366, calendar: "julian" },
    },
    {
      title: "Year 0 (1 BC) is a leap year",
      input: { year: 0 },
      output: { year: 0, isLeapYear: true, daysInYear: 366, calendar: "gregorian" },
    },
  ],
  handler: ({ year, calendar }) => {
    const leap = isLeapYear(year, calendar);
    // A client may send `year=-0`; `+ 0` reports it as plain 0.
    return { year: year + 0, isLeapYear: leap, daysInYear: leap ? 366 : 365, calendar };
  },
});
