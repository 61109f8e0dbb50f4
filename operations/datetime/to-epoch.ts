import { CalculationError, defineOperation, Exact, toPlain, z } from "#kit";
import {
  attempt,
  momentKind,
  momentText,
  readMoment,
  readTimeZone,
  type T,
  timeZoneText,
} from "./_temporal.js";

const NANOSECONDS_PER_MILLISECOND = 1_000_000n;

/** `a / b` rounded toward negative infinity (BigInt division truncates). */
function floorDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return a % b !== 0n && a < 0n ? quotient - 1n : quotient;
}

export default defineOperation({
  area: "datetime",
  name: "to-epoch",
  summary: "ISO 8601 date-time to Unix epoch time (seconds, milliseconds, nanoseconds)",
  description: [
    "Turns a moment into Unix time: the count since 1970-01-01T00:00:00Z, without leap seconds.",
    "`dateTime` is an instant (`2024-11-27T13:10:00Z`, `…+01:00`), a zoned date-time " +
      "(`…[Europe/Paris]`), or a date-time or date without offset (`2024-11-27T13:10`, " +
      "`2024-11-27` for its midnight), which then needs `timeZone` to say whose clock it reads " +
      "(a local time skipped or repeated there is taken as the earlier reading, Temporal's " +
      "`compatible` choice). `timeZone` is refused when the text carries an offset or zone.",
    "`seconds` and `milliseconds` are exact decimal strings (fractions kept to the nanosecond); " +
      "`epochSeconds` and `epochMilliseconds` are the same rounded down to whole numbers (as " +
      "`Math.floor`, so one second before the epoch plus a half is −1, not 0); `nanoseconds` is " +
      "the exact integer count as a string.",
  ].join("\n\n"),
  input: z.object({
    dateTime: momentText(
      "An instant, zoned date-time, or a local date-time / date (with `timeZone`).",
    ),
    timeZone: timeZoneText(
      "For a date-time or date without offset: the IANA zone (or offset) whose clock it reads.",
    ).optional(),
  }),
  output: z.object({
    epochSeconds: z.int().describe("Whole seconds since the epoch, rounded down."),
    epochMilliseconds: z.int().describe("Whole milliseconds since the epoch, rounded down."),
    seconds: z.string().describe("Seconds since the epoch, exactly (decimal string)."),
    milliseconds: z.string().describe("Milliseconds since the epoch, exactly (decimal string)."),
    nanoseconds: z.string().describe("Nanoseconds since the epoch (integer string)."),
    instant: z.string().describe("The moment as a UTC instant (`Z`)."),
    kind: momentKind,
  }),
  examples: [
    {
      title: "An instant in UTC",
      input: { dateTime: "2023-11-14T22:13:20Z" },
      output: {
        epochSeconds: 1700000000,
        epochMilliseconds: 1700000000000,
        seconds: "1700000000",
        milliseconds: "1700000000000",
        nanoseconds: "1700000000000000000",
        instant: "2023-11-14T22:13:20Z",
        kind: "instant",
      },
    },
    {
      title: "Midnight in Tokyo",
      input: { dateTime: "2024-01-01", timeZone: "Asia/Tokyo" },
      output: {
        epochSeconds: 1704034800,
        epochMilliseconds: 1704034800000,
        seconds: "1704034800",
        milliseconds: "1704034800000",
        nanoseconds: "1704034800000000000",
        instant: "2023-12-31T15:00:00Z",
        kind: "date",
      },
    },
    {
      title: "Half a second before the epoch rounds down to −1",
      input: { dateTime: "1969-12-31T23:59:59.5Z" },
      output: {
        epochSeconds: -1,
        epochMilliseconds: -500,
        seconds: "-0.5",
        milliseconds: "-500",
        nanoseconds: "-500000000",
        instant: "1969-12-31T23:59:59.5Z",
        kind: "instant",
      },
    },
  ],
  handler: ({ dateTime, timeZone }) => {
    const moment = readMoment(dateTime, "dateTime");
    let instant: T.Instant;
    if (moment.kind === "instant" || moment.kind === "zoned") {
      if (timeZone !== undefined) {
        throw new CalculationError(
          "dateTime already carries its offset or zone; leave `timeZone` out",
          ["timeZone"],
        );
      }
      instant = moment.kind === "zoned" ? moment.value.toInstant() : moment.value;
    } else {
      if (timeZone === undefined) {
        throw new CalculationError(
          "dateTime has no offset or zone: say whose clock it reads with `timeZone`",
          ["timeZone"],
        );
      }
      const zone = readTimeZone(timeZone, "timeZone");
      const local = moment.value;
      instant = attempt(
        () =>
          (moment.kind === "date"
            ? (local as T.PlainDate).toZonedDateTime(zone)
            : (local as T.PlainDateTime).toZonedDateTime(zone)
          ).toInstant(),
        "dateTime",
        "within Temporal's range in that zone",
      );
    }
    const nanoseconds = instant.epochNanoseconds;
    const exact = new Exact(nanoseconds.toString());
    return {
      epochSeconds: Number(floorDiv(nanoseconds, 1_000_000_000n)),
      epochMilliseconds: Number(floorDiv(nanoseconds, NANOSECONDS_PER_MILLISECOND)),
      seconds: toPlain(exact.div("1e9")),
      milliseconds: toPlain(exact.div("1e6")),
      nanoseconds: nanoseconds.toString(),
      instant: instant.toString(),
      kind: moment.kind,
    };
  },
});
