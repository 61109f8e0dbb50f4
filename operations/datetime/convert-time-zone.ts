import { CalculationError, defineOperation, z } from "#kit";
import {
  attempt,
  momentKind,
  momentText,
  readMoment,
  readTimeZone,
  type T,
  timeZoneText,
} from "./_temporal.js";

/** The numeric offset an instant's text ends with (`Z` reads as UTC). */
const OFFSET_AT_END = /([+-]\d{2}(?::?\d{2})?)$/;

const DISAMBIGUATIONS = ["compatible", "earlier", "later", "reject"] as const;

export default defineOperation({
  area: "datetime",
  name: "convert-time-zone",
  summary: "Convert an instant or a local date-time between IANA time zones",
  description: [
    "Says what time it is in time zone `to` at the moment `dateTime` names, with the IANA " +
      "time-zone database's rules (daylight saving and historical offsets included).",
    "`dateTime` is an instant (`2024-07-01T12:00:00Z`, `2024-07-01T14:00+02:00`), a zoned " +
      "date-time (`2024-07-01T14:00+02:00[Europe/Paris]`), or a local date-time without offset " +
      "(`2024-07-01T14:00`), which then needs `from`, the zone whose wall clock it reads. `from` " +
      "is refused when the text already carries an offset or a zone. `to` and `from` are IANA " +
      "names (`Asia/Kolkata`, `UTC`, case-insensitive; answered in canonical spelling) or " +
      "offsets (`+05:30`); an unknown zone is a 422 naming it.",
    "A local time that occurs twice (clocks going back) or not at all (clocks going forward) in " +
      "`from` is resolved by `disambiguation`: `compatible` (default: the earlier of two, the " +
      "later for a gap, as most software does), `earlier`, `later`, or `reject` (a 422).",
  ].join("\n\n"),
  input: z.object({
    dateTime: momentText("An instant, a zoned date-time, or a local date-time (with `from`)."),
    to: timeZoneText("The time zone to convert to: an IANA name or an offset."),
    from: timeZoneText(
      "For a local date-time without offset: the time zone whose wall clock it reads.",
    ).optional(),
    disambiguation: z
      .enum(DISAMBIGUATIONS)
      .default("compatible")
      .describe("How a local time that is skipped or repeated in `from` is resolved."),
  }),
  output: z.object({
    result: z.string().describe("The moment in `to`, as a zoned date-time (RFC 9557)."),
    localDateTime: z.string().describe("The wall-clock date and time in `to`, without offset."),
    offset: z.string().describe("The UTC offset of `to` at that moment (`+05:30`)."),
    timeZone: z.string().describe("`to`, canonically spelled."),
    instant: z.string().describe("The moment as a UTC instant (`Z`)."),
    sourceOffset: z
      .string()
      .describe("The UTC offset the input was read with (from its text, or `from`)."),
    kind: momentKind,
  }),
  examples: [
    {
      title: "Noon UTC in Kolkata",
      input: { dateTime: "2024-07-01T12:00:00Z", to: "Asia/Kolkata" },
      output: {
        result: "2024-07-01T17:30:00+05:30[Asia/Kolkata]",
        localDateTime: "2024-07-01T17:30:00",
        offset: "+05:30",
        timeZone: "Asia/Kolkata",
        instant: "2024-07-01T12:00:00Z",
        sourceOffset: "+00:00",
        kind: "instant",
      },
    },
    {
      title: "A meeting at 9:00 in New York, on Tokyo's clock",
      input: { dateTime: "2024-11-27T09:00", from: "America/New_York", to: "Asia/Tokyo" },
      output: {
        result: "2024-11-27T23:00:00+09:00[Asia/Tokyo]",
        localDateTime: "2024-11-27T23:00:00",
        offset: "+09:00",
        timeZone: "Asia/Tokyo",
        instant: "2024-11-27T14:00:00Z",
        sourceOffset: "-05:00",
        kind: "date-time",
      },
    },
    {
      title: "02:30 happens twice in Berlin on 2024-10-27: the later one",
      input: {
        dateTime: "2024-10-27T02:30",
        from: "Europe/Berlin",
        to: "UTC",
        disambiguation: "later",
      },
      output: {
        result: "2024-10-27T01:30:00+00:00[UTC]",
        localDateTime: "2024-10-27T01:30:00",
        offset: "+00:00",
        timeZone: "UTC",
        instant: "2024-10-27T01:30:00Z",
        sourceOffset: "+01:00",
        kind: "date-time",
      },
    },
  ],
  handler: ({ dateTime, to, from, disambiguation }) => {
    const moment = readMoment(dateTime, "dateTime");
    const target = readTimeZone(to, "to");
    let source: T.ZonedDateTime;
    if (moment.kind === "date-time") {
      if (from === undefined) {
        throw new CalculationError(
          "dateTime has no offset or zone: say whose wall clock it reads with `from`",
          ["from"],
        );
      }
      const zone = readTimeZone(from, "from");
      source = attempt(
        () => moment.value.toZonedDateTime(zone, { disambiguation }),
        "dateTime",
        `a time that exists once in ${zone}`,
      );
    } else if (from !== undefined) {
      throw new CalculationError("dateTime already carries its offset or zone; leave `from` out", [
        "from",
      ]);
    } else if (moment.kind === "date") {
      throw new CalculationError("dateTime needs a time of day, not only a date", ["dateTime"]);
    } else if (moment.kind === "zoned") {
      source = moment.value;
    } else {
      // An instant keeps the offset it was written with, so `sourceOffset` can echo it.
      const written = OFFSET_AT_END.exec(dateTime)?.[1];
      const instant = moment.value;
      source = attempt(
        () => instant.toZonedDateTimeISO(written ?? "UTC"),
        "dateTime",
        "an instant with a whole-minute offset",
      );
    }
    const result = source.withTimeZone(target);
    return {
      result: result.toString(),
      localDateTime: result.toPlainDateTime().toString(),
      offset: result.offset,
      timeZone: result.timeZoneId,
      instant: result.toInstant().toString(),
      sourceOffset: source.offset,
      kind: moment.kind,
    };
  },
});
