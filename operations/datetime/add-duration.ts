import { CalculationError, defineOperation, z } from "#kit";
import {
  attempt,
  momentKind,
  momentText,
  readDuration,
  readMoment,
  readTimeZone,
  timeZoneText,
} from "./_temporal.js";

const OVERFLOWS = ["constrain", "reject"] as const;

export default defineOperation({
  area: "datetime",
  name: "add-duration",
  summary: "Add an ISO 8601 duration to a date, date-time or instant (calendar-aware)",
  description: [
    "Adds `duration` (ISO 8601: `P1Y2M10DT2H30M`, `P2W`, `-PT90M` to subtract) to `start`, as " +
      "Temporal's `add` does: years and months first, then days, then time, on the calendar.",
    "`start` is a date (`2024-01-31`), a date-time without offset (`2024-01-31T09:00`), an " +
      "instant (`2024-01-31T09:00:00Z`, `…+01:00`) or a zoned date-time " +
      "(`2024-03-09T12:00-05:00[America/New_York]`). The answer is of the same kind. For a zoned " +
      "date-time, days keep the wall-clock time across daylight-saving changes while hours are " +
      "exact elapsed time. An instant is added to on the clock of `timeZone` (an IANA name or an " +
      "offset, default UTC) and answered as an instant in UTC (`Z`); `timeZone` is refused for the " +
      "other kinds. A date takes the time part of the duration in whole days only (`PT25H` adds one day).",
    "When the day does not exist in the target month (January 31 plus one month), `overflow=" +
      "constrain` (default) moves to the month's last day and `reject` answers a 422. A result " +
      "outside Temporal's range (about ±270,000 years) is a 422; so are an unknown time zone and a " +
      "malformed duration. `instant` is the result as a UTC instant for absolute times, else null.",
  ].join("\n\n"),
  input: z.object({
    start: momentText("A date, date-time, instant or zoned date-time."),
    duration: momentText("An ISO 8601 duration: `P1M`, `P1DT12H`, `-PT30M`."),
    overflow: z
      .enum(OVERFLOWS)
      .default("constrain")
      .describe("`constrain` (default): clamp to the month's last day; `reject`: a 422 instead."),
    timeZone: timeZoneText(
      "For an instant: the IANA zone (or offset) whose calendar the duration is added on (default UTC).",
    ).optional(),
  }),
  output: z.object({
    result: z.string().describe("`start` plus `duration`, written as `start` was (kind)."),
    kind: momentKind,
    instant: z
      .string()
      .nullable()
      .describe("For instants and zoned date-times: the result as a UTC instant; else null."),
  }),
  examples: [
    {
      title: "One month after January 31 is February's last day",
      input: { start: "2024-01-31", duration: "P1M" },
      output: { result: "2024-02-29", kind: "date", instant: null },
    },
    {
      title: "A day later keeps the wall clock across the daylight-saving change",
      input: { start: "2024-03-09T12:00-05:00[America/New_York]", duration: "P1D" },
      output: {
        result: "2024-03-10T12:00:00-04:00[America/New_York]",
        kind: "zoned",
        instant: "2024-03-10T16:00:00Z",
      },
    },
    {
      title: "Subtract 90 minutes from an instant",
      input: { start: "2024-01-01T00:30:00Z", duration: "-PT90M" },
      output: {
        result: "2023-12-31T23:00:00Z",
        kind: "instant",
        instant: "2023-12-31T23:00:00Z",
      },
    },
  ],
  handler: ({ start, duration, overflow, timeZone }) => {
    const moment = readMoment(start, "start");
    const amount = readDuration(duration, "duration");
    if (timeZone !== undefined && moment.kind !== "instant") {
      throw new CalculationError("timeZone applies only when start is an instant", ["timeZone"]);
    }
    const options = { overflow };
    const what = "addable here (the result must exist and be within Temporal's range)";
    switch (moment.kind) {
      case "date": {
        const result = attempt(() => moment.value.add(amount, options), "duration", what);
        return { result: result.toString(), kind: moment.kind, instant: null };
      }
      case "date-time": {
        const result = attempt(() => moment.value.add(amount, options), "duration", what);
        return { result: result.toString(), kind: moment.kind, instant: null };
      }
      case "zoned": {
        const result = attempt(() => moment.value.add(amount, options), "duration", what);
        return {
          result: result.toString(),
          kind: moment.kind,
          instant: result.toInstant().toString(),
        };
      }
      case "instant": {
        const zone = timeZone === undefined ? "UTC" : readTimeZone(timeZone, "timeZone");
        const result = attempt(
          () => moment.value.toZonedDateTimeISO(zone).add(amount, options).toInstant().toString(),
          "duration",
          what,
        );
        return { result, kind: moment.kind, instant: result };
      }
    }
  },
});
