import { CalculationError, defineOperation, z } from "#kit";
import { momentText, readMoment } from "./_temporal.js";

const DAY_NAMES = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;

const floorDiv = (a: number, b: number) => Math.floor(a / b);

/** The weekday of December 31 of `year`, 0 = Sunday … 6 = Saturday (proleptic Gregorian). */
const december31 = (year: number) =>
  (((year + floorDiv(year, 4) - floorDiv(year, 100) + floorDiv(year, 400)) % 7) + 7) % 7;

/** A year has 53 ISO weeks when it ends on a Thursday, or its previous year on a Wednesday. */
const isoWeeksIn = (year: number) =>
  december31(year) === 4 || december31(year - 1) === 3 ? 53 : 52;

export default defineOperation({
  area: "datetime",
  name: "iso-week",
  summary: "ISO 8601 week (week-year, week number) and day of week of a date",
  description: [
    "The ISO 8601 week date of `date` (proleptic Gregorian calendar): weeks start on Monday, and " +
      "week 1 of a week-year is the week with that year's first Thursday. So the first days of " +
      "January may belong to the previous week-year's last week (2021-01-01 is 2020-W53-5), and " +
      "the last days of December to the next week-year's week 1 (2024-12-30 is 2025-W01-1).",
    "`date` is an ISO 8601 calendar date (`2024-11-27`; years beyond 9999 as `+012024-01-01`). " +
      "`dayOfWeek` runs from 1 (Monday) to 7 (Sunday). `weeksInYear` is 52 or 53 for `weekYear`. " +
      "An invalid date (2023-02-29) or a date outside Temporal's range is a 422.",
  ].join("\n\n"),
  input: z.object({
    date: momentText("An ISO 8601 calendar date, `YYYY-MM-DD`."),
  }),
  output: z.object({
    date: z.string().describe("The date, as ISO 8601 writes it."),
    isoWeekDate: z.string().describe("The ISO week date, `YYYY-Www-D` (`2020-W53-5`)."),
    weekYear: z.int().describe("The ISO week-numbering year (may differ from the calendar year)."),
    week: z.int().describe("The ISO week number, 1 to 53."),
    dayOfWeek: z.int().describe("1 (Monday) to 7 (Sunday)."),
    dayName: z.enum(DAY_NAMES).describe("The English name of the day."),
    dayOfYear: z.int().describe("1 to 366: the day's number in its calendar year."),
    weeksInYear: z.int().describe("52 or 53: how many ISO weeks `weekYear` has."),
  }),
  examples: [
    {
      title: "New Year's Day 2021 is in the last week of 2020",
      input: { date: "2021-01-01" },
      output: {
        date: "2021-01-01",
        isoWeekDate: "2020-W53-5",
        weekYear: 2020,
        week: 53,
        dayOfWeek: 5,
        dayName: "Friday",
        dayOfYear: 1,
        weeksInYear: 53,
      },
    },
    {
      title: "2024-12-30 is in week 1 of 2025",
      input: { date: "2024-12-30" },
      output: {
        date: "2024-12-30",
        isoWeekDate: "2025-W01-1",
        weekYear: 2025,
        week: 1,
        dayOfWeek: 1,
        dayName: "Monday",
        dayOfYear: 365,
        weeksInYear: 52,
      },
    },
  ],
  handler: ({ date }) => {
    const moment = readMoment(date, "date");
    if (moment.kind !== "date") {
      throw new CalculationError("date must be a calendar date alone, without a time", ["date"]);
    }
    const day = moment.value;
    // The ISO calendar always defines both; the types allow undefined for other calendars.
    const weekYear = day.yearOfWeek as number;
    const week = day.weekOfYear as number;
    // Computed, not read from December 28: that day is out of Temporal's range in its last year.
    const weeksInYear = isoWeeksIn(weekYear);
    const yearText =
      weekYear >= 0 && weekYear <= 9999
        ? String(weekYear).padStart(4, "0")
        : `${weekYear < 0 ? "-" : "+"}${String(Math.abs(weekYear)).padStart(6, "0")}`;
    return {
      date: day.toString(),
      isoWeekDate: `${yearText}-W${String(week).padStart(2, "0")}-${day.dayOfWeek}`,
      weekYear,
      week,
      dayOfWeek: day.dayOfWeek,
      dayName: DAY_NAMES[day.dayOfWeek - 1] as (typeof DAY_NAMES)[number],
      dayOfYear: day.dayOfYear,
      weeksInYear,
    };
  },
});
