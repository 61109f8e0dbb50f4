import { CalculationError, decimal, defineOperation, type Exact, z } from "#kit";
import { attempt, readTimeZone, temporal, timeZoneText } from "./_temporal.js";

const EPOCH_UNITS = ["seconds", "milliseconds", "microseconds", "nanoseconds"] as const;
type EpochUnit = (typeof EPOCH_UNITS)[number];

/** Decimal places of each unit that are still whole nanoseconds. */
const NANOSECOND_PLACES: Record<EpochUnit, number> = {
  seconds: 9,
  milliseconds: 6,
  microseconds: 3,
  nanoseconds: 0,
};

/** The exact count of nanoseconds `value` `unit`s make, or a 422 for a finer fraction. */
function toNanoseconds(value: Exact, unit: EpochUnit): bigint {
  const places = NANOSECOND_PLACES[unit];
  if (value.decimalPlaces() > places) {
    throw new CalculationError(
      `value has ${value.decimalPlaces()} decimal places; in ${unit}, at most ${places} are whole nanoseconds`,
      ["value"],
    );
  }
  // At most 100 characters of literal (decimal() bounds it), so the BigInt is small.
  return BigInt(value.times(`1e${places}`).toFixed(0));
}

export default defineOperation({
  area: "datetime",
  name: "from-epoch",
  summary: "Unix epoch time (seconds, milliseconds, …) to an ISO 8601 instant",
  description: [
    "Turns a Unix timestamp, counted from 1970-01-01T00:00:00Z without leap seconds, into an " +
      "ISO 8601 instant in UTC (`instant`), and, with `timeZone` (an IANA name or an offset), " +
      "into the zoned date-time there (`zoned`).",
    "`value` is a decimal in `unit` (default seconds), negative before 1970, exactly converted: " +
      "fractions are kept to the nanosecond (`1700000000.123456789`), and a fraction finer than " +
      "a nanosecond is a 422. Temporal's range is ±8.64 × 10^12 seconds (about ±273,790 years " +
      "around 1970); beyond it is a 422. The instant is written with as many fraction digits as " +
      "it needs. `epochNanoseconds` is the exact count of nanoseconds as a decimal string.",
  ].join("\n\n"),
  input: z.object({
    value: decimal({ description: "The timestamp, in `unit`s since 1970-01-01T00:00:00Z." }),
    unit: z
      .enum(EPOCH_UNITS)
      .default("seconds")
      .describe("What `value` counts: seconds (default), milliseconds, microseconds, nanoseconds."),
    timeZone: timeZoneText(
      "Also answer the zoned date-time in this IANA zone (or offset).",
    ).optional(),
  }),
  output: z.object({
    instant: z.string().describe("The instant in UTC, ISO 8601 (`…Z`)."),
    zoned: z
      .string()
      .nullable()
      .describe("The zoned date-time in `timeZone` (RFC 9557), or null without one."),
    epochNanoseconds: z.string().describe("Nanoseconds since the epoch, exactly, as a string."),
  }),
  examples: [
    {
      title: "1,700,000,000 seconds",
      input: { value: "1700000000" },
      output: {
        instant: "2023-11-14T22:13:20Z",
        zoned: null,
        epochNanoseconds: "1700000000000000000",
      },
    },
    {
      title: "Milliseconds, shown in Sydney",
      input: { value: "1732713000123", unit: "milliseconds", timeZone: "Australia/Sydney" },
      output: {
        instant: "2024-11-27T13:10:00.123Z",
        zoned: "2024-11-28T00:10:00.123+11:00[Australia/Sydney]",
        epochNanoseconds: "1732713000123000000",
      },
    },
    {
      title: "Before 1970, with a fraction",
      input: { value: "-1.5" },
      output: {
        instant: "1969-12-31T23:59:58.5Z",
        zoned: null,
        epochNanoseconds: "-1500000000",
      },
    },
  ],
  handler: ({ value, unit, timeZone }) => {
    const nanoseconds = toNanoseconds(value, unit);
    const instant = attempt(
      () => temporal().Instant.fromEpochNanoseconds(nanoseconds),
      "value",
      "within Temporal's range of ±8.64 × 10^21 nanoseconds",
    );
    const zone = timeZone === undefined ? undefined : readTimeZone(timeZone, "timeZone");
    return {
      instant: instant.toString(),
      zoned: zone === undefined ? null : instant.toZonedDateTimeISO(zone).toString(),
      epochNanoseconds: nanoseconds.toString(),
    };
  },
});
