import { CalculationError, defineOperation, z } from "#kit";
import {
  attempt,
  type Moment,
  momentKind,
  momentText,
  readMoment,
  readTimeZone,
  type T,
  timeZoneText,
  UNITS,
} from "./_temporal.js";

const LARGEST_UNITS = ["auto", ...UNITS] as const;
const ROUNDING_MODES = ["trunc", "floor", "ceil", "expand", "halfExpand", "halfEven"] as const;

const unitFields = Object.fromEntries(
  UNITS.map((unit) => [unit, z.int().describe(`Whole ${unit} of the difference (signed).`)]),
) as Record<(typeof UNITS)[number], z.ZodInt>;

/** Both ends as values Temporal can subtract, and the zone calendar units were counted in. */
type Pair =
  | { kind: "date"; start: T.PlainDate; end: T.PlainDate; timeZone: null }
  | { kind: "date-time"; start: T.PlainDateTime; end: T.PlainDateTime; timeZone: null }
  | { kind: "zoned"; start: T.ZonedDateTime; end: T.ZonedDateTime; timeZone: string };

const isAbsolute = (moment: Moment) => moment.kind === "instant" || moment.kind === "zoned";

function zonedIn(moment: Moment, zone: string): T.ZonedDateTime {
  return moment.kind === "zoned"
    ? moment.value.withTimeZone(zone)
    : (moment.value as T.Instant).toZonedDateTimeISO(zone);
}

function pairOf(start: Moment, end: Moment, timeZone: string | undefined): Pair {
  if (isAbsolute(start) && isAbsolute(end)) {
    // Calendar units are counted on one clock: the zone asked for, else start's, else UTC.
    const zone =
      timeZone ??
      (start.kind === "zoned" ? start.value.timeZoneId : undefined) ??
      (end.kind === "zoned" ? end.value.timeZoneId : undefined) ??
      "UTC";
    return { kind: "zoned", start: zonedIn(start, zone), end: zonedIn(end, zone), timeZone: zone };
  }
  if (timeZone !== undefined) {
    throw new CalculationError(
      "timeZone applies only when both start and end are instants or zoned date-times",
      ["timeZone"],
    );
  }
  if (start.kind === "date" && end.kind === "date") {
    return { kind: "date", start: start.value, end: end.value, timeZone: null };
  }
  if (start.kind === "date-time" && end.kind === "date-time") {
    return { kind: "date-time", start: start.value, end: end.value, timeZone: null };
  }
  throw new CalculationError(
    `start is ${article(start.kind)} and end is ${article(end.kind)}: send two dates, two date-times ` +
      "without offset, or two instants / zoned date-times",
    ["end"],
  );
}

const article = (kind: string) => (kind === "instant" ? "an instant" : `a ${kind}`);

export default defineOperation({
  area: "datetime",
  name: "difference",
  summary: "Difference between two dates or instants, in calendar-aware units",
  description: [
    "The duration from `start` to `end` (negative when `end` is earlier), as Temporal's " +
      "`until` computes it: calendar-aware, so from 2024-01-31 to 2024-03-01 is 1 month and 1 day, " +
      "and a day across a daylight-saving change is still one day in a zoned date-time.",
    "`start` and `end` are two dates (`2024-03-10`), two date-times without offset " +
      "(`2024-03-10T12:30`), or two absolute times: instants (`2024-03-10T12:30:00Z`, " +
      "`…+01:00`) or zoned date-times (`2024-03-10T12:30:00+01:00[Europe/Paris]`), which may " +
      "be mixed. For absolute times, years, months, weeks and days are counted on the clock of " +
      "`timeZone` (an IANA name or an offset), by default `start`'s zone, else `end`'s, else UTC. " +
      "A date and a date-time cannot be subtracted (422), and neither can a plain date-time and an " +
      "instant; an unknown time zone is a 422 naming it.",
    "`largestUnit` (default `auto`: days for dates, hours for date-times and instants) is the " +
      "largest unit of the answer; `smallestUnit` (default nanoseconds, days for dates) the smallest, " +
      "the rest rounded with `roundingMode` (default `trunc`, toward zero). Dates take no unit below " +
      "days (422). `duration` is the ISO 8601 duration; each unit is also given as a whole number, 0 " +
      "for units not used. A unit count beyond 2^53 − 1 (nanoseconds over 104 days) is a 422: choose " +
      "a larger unit. The answer never depends on the current time.",
  ].join("\n\n"),
  input: z.object({
    start: momentText("The earlier end, usually: a date, date-time, instant or zoned date-time."),
    end: momentText("The other end, of the same kind as `start` (instants and zoned may mix)."),
    largestUnit: z
      .enum(LARGEST_UNITS)
      .default("auto")
      .describe("The largest unit of the answer (default `auto`)."),
    smallestUnit: z
      .enum(UNITS)
      .optional()
      .describe("The smallest unit of the answer (default nanoseconds, days for dates)."),
    roundingMode: z
      .enum(ROUNDING_MODES)
      .default("trunc")
      .describe("How the remainder below `smallestUnit` is rounded (default `trunc`)."),
    timeZone: timeZoneText(
      "For absolute times: the IANA zone (or offset) whose calendar counts days and months.",
    ).optional(),
  }),
  output: z.object({
    duration: z.string().describe("The difference as an ISO 8601 duration (`P1M1D`, `-PT90M`)."),
    sign: z.int().describe("1 when end is after start, -1 when before, 0 when equal."),
    ...unitFields,
    kind: momentKind,
    timeZone: z
      .string()
      .nullable()
      .describe("The zone calendar units were counted in (absolute times), else null."),
  }),
  examples: [
    {
      title: "From the last day of January to March: 1 month 1 day",
      input: { start: "2024-01-31", end: "2024-03-01", largestUnit: "months" },
      output: {
        duration: "P1M1D",
        sign: 1,
        years: 0,
        months: 1,
        weeks: 0,
        days: 1,
        hours: 0,
        minutes: 0,
        seconds: 0,
        milliseconds: 0,
        microseconds: 0,
        nanoseconds: 0,
        kind: "date",
        timeZone: null,
      },
    },
    {
      title: "Across a daylight-saving change, one day is 23 hours",
      input: {
        start: "2024-03-09T12:00-05:00[America/New_York]",
        end: "2024-03-10T12:00-04:00[America/New_York]",
        largestUnit: "hours",
      },
      output: {
        duration: "PT23H",
        sign: 1,
        years: 0,
        months: 0,
        weeks: 0,
        days: 0,
        hours: 23,
        minutes: 0,
        seconds: 0,
        milliseconds: 0,
        microseconds: 0,
        nanoseconds: 0,
        kind: "zoned",
        timeZone: "America/New_York",
      },
    },
    {
      title: "Two instants in years, months and days, counted in UTC",
      input: { start: "2000-02-29T00:00:00Z", end: "2024-11-27T18:30:00Z", largestUnit: "years" },
      output: {
        duration: "P24Y8M29DT18H30M",
        sign: 1,
        years: 24,
        months: 8,
        weeks: 0,
        days: 29,
        hours: 18,
        minutes: 30,
        seconds: 0,
        milliseconds: 0,
        microseconds: 0,
        nanoseconds: 0,
        kind: "zoned",
        timeZone: "UTC",
      },
    },
    {
      title: "Days between two dates, start after end",
      input: { start: "2024-12-25", end: "2024-01-01" },
      output: {
        duration: "-P359D",
        sign: -1,
        years: 0,
        months: 0,
        weeks: 0,
        days: -359,
        hours: 0,
        minutes: 0,
        seconds: 0,
        milliseconds: 0,
        microseconds: 0,
        nanoseconds: 0,
        kind: "date",
        timeZone: null,
      },
    },
  ],
  handler: ({ start, end, largestUnit, smallestUnit, roundingMode, timeZone }) => {
    const zone = timeZone === undefined ? undefined : readTimeZone(timeZone, "timeZone");
    const pair = pairOf(readMoment(start, "start"), readMoment(end, "end"), zone);
    const options = {
      largestUnit,
      smallestUnit: smallestUnit ?? (pair.kind === "date" ? "days" : "nanoseconds"),
      roundingMode,
    } as const;
    const duration = attempt(
      () =>
        // Each pair holds two values of one type; TypeScript cannot see that through the union.
        (pair.start as T.PlainDate).until(pair.end as T.PlainDate, options as never),
      "largestUnit",
      `a unit a ${pair.kind} difference allows (dates take none below days)`,
    );
    const units = Object.fromEntries(UNITS.map((unit) => [unit, duration[unit] + 0]));
    for (const unit of UNITS) {
      if (!Number.isSafeInteger(units[unit])) {
        throw new CalculationError(
          `the difference is more than 2^53 − 1 ${unit}; choose a larger largestUnit`,
          ["largestUnit"],
        );
      }
    }
    return {
      duration: duration.toString(),
      sign: duration.sign,
      ...(units as Record<(typeof UNITS)[number], number>),
      kind: pair.kind,
      timeZone: pair.timeZone,
    };
  },
});
