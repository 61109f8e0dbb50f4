/**
 * The Temporal API for the datetime operations, and how they read dates, date-times,
 * instants, durations and time zones from text. The polyfill (and the time-zone data it
 * reads through Intl) is loaded on the first call, not at start: it costs about 16 MB of
 * RSS, which a process that never answers a date question should not pay.
 */
import { createRequire } from "node:module";
import type { Temporal as TemporalApi } from "temporal-polyfill";
import { CalculationError, text, z } from "#kit";

export type { TemporalApi as T };

let loaded: typeof TemporalApi | undefined;

/**
 * The `Temporal` namespace, loaded once. `require` of an ES module is synchronous on
 * Node 22.12+ and 24, so handlers stay synchronous.
 */
export function temporal(): typeof TemporalApi {
  loaded ??= (
    createRequire(import.meta.url)("temporal-polyfill") as { Temporal: typeof TemporalApi }
  ).Temporal;
  return loaded;
}

/** Whether the polyfill has been loaded yet (for the test that it is not loaded at import). */
export const temporalLoaded = () => loaded !== undefined;

/** Longest date, date-time, duration or zone text accepted: any valid one is far shorter. */
export const MAX_MOMENT_LENGTH = 100;

/** A text parameter holding a date, date-time, duration or zone. */
export const momentText = (description: string) =>
  text({ min: 1, max: MAX_MOMENT_LENGTH, description: `${description}${PLUS_IN_URL}` });

/** Offsets and extended years start with `+`, which a URL query turns into a space. */
const PLUS_IN_URL = " In a URL, send a `+` as `%2B`.";

/** What a text holding a point in time turned out to be. */
export const MOMENT_KINDS = ["date", "date-time", "instant", "zoned"] as const;
export type MomentKind = (typeof MOMENT_KINDS)[number];

export type Moment =
  | { kind: "date"; value: TemporalApi.PlainDate }
  | { kind: "date-time"; value: TemporalApi.PlainDateTime }
  | { kind: "instant"; value: TemporalApi.Instant }
  | { kind: "zoned"; value: TemporalApi.ZonedDateTime };

export const momentKind = z
  .enum(MOMENT_KINDS)
  .describe(
    "What the text was read as: `date` (2024-03-10), `date-time` (2024-03-10T12:00, no offset), " +
      "`instant` (with `Z` or an offset) or `zoned` (with a `[Area/City]` time zone).",
  );

/** The first line of a Temporal RangeError, without the polyfill's own wording quirks. */
const reason = (error: unknown) =>
  error instanceof Error ? error.message.split("\n")[0] : String(error);

/** A time designator: the text has a time of day, not just a date. */
const HAS_TIME = /[Tt ]\d/;
/** The text names a time zone in brackets (RFC 9557): `…[Europe/Paris]`. */
const HAS_ZONE = /\[(?!u-ca=)/;
/** The first bracketed annotation that is not a key=value one: the time zone. */
const ZONE_IN_BRACKETS = /\[!?([^\]=]+)\]/;

/**
 * Runs `read`; a RangeError or TypeError of Temporal's (bad text, out of range) becomes a
 * 422 at `field`, saying what was expected.
 */
export function attempt<T>(read: () => T, field: string, what: string, sent?: string): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof CalculationError) throw error;
    throw new CalculationError(`${field} is not ${what}: ${reason(error)}${plusHint(sent)}`, [
      field,
    ]);
  }
}

/** A `+` sent unescaped in a URL arrives as a space: say so, it is the usual cause. */
const plusHint = (sent: string | undefined) =>
  sent !== undefined && / \d/.test(sent) ? " (a '+' in a URL must be sent as %2B)" : "";

/**
 * Reads a date (`2024-03-10`), a date-time without offset (`2024-03-10T12:30`), an instant
 * (`2024-03-10T12:30:00Z`, `…+01:00`) or a zoned date-time (`…+01:00[Europe/Paris]`).
 */
export function readMoment(textValue: string, field: string): Moment {
  const T = temporal();
  const what = "an ISO 8601 date, date-time or instant";
  if (HAS_ZONE.test(textValue)) {
    // Checked first so that an unknown zone is named as written (Temporal upper-cases it).
    const zone = ZONE_IN_BRACKETS.exec(textValue)?.[1];
    if (zone !== undefined) readTimeZone(zone, field);
    return {
      kind: "zoned",
      value: attempt(
        () => T.ZonedDateTime.from(textValue),
        field,
        "a zoned date-time (RFC 9557)",
        textValue,
      ),
    };
  }
  if (HAS_TIME.test(textValue)) {
    try {
      return { kind: "instant", value: T.Instant.from(textValue) };
    } catch {
      // No offset: a plain date-time, read below.
    }
    return {
      kind: "date-time",
      value: attempt(() => T.PlainDateTime.from(textValue), field, what, textValue),
    };
  }
  return {
    kind: "date",
    value: attempt(() => T.PlainDate.from(textValue), field, what, textValue),
  };
}

/**
 * The canonical id of an IANA time zone (`europe/paris` → `Europe/Paris`), or an offset
 * zone (`+05:30`); an unknown one is a 422 naming it.
 */
export function readTimeZone(id: string, field: string): string {
  const T = temporal();
  try {
    return T.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(id).timeZoneId;
  } catch {
    throw new CalculationError(
      `unknown time zone '${id}': use an IANA name such as 'Europe/Paris' or 'UTC', or an offset such as '+05:30'${plusHint(id)}`,
      [field],
    );
  }
}

/** A time zone parameter: an IANA name or an offset. */
export const timeZoneText = (description: string) =>
  text({ min: 1, max: MAX_MOMENT_LENGTH, description: `${description}${PLUS_IN_URL}` });

/** An ISO 8601 duration (`P1Y2M`, `-PT90M`, `P1DT12H`), or a 422 at `field`. */
export function readDuration(textValue: string, field: string): TemporalApi.Duration {
  return attempt(
    () => temporal().Duration.from(textValue),
    field,
    "an ISO 8601 duration such as P1Y2M10DT2H30M or -PT90M",
  );
}

/** Time units, largest first, as Temporal names them. */
export const UNITS = [
  "years",
  "months",
  "weeks",
  "days",
  "hours",
  "minutes",
  "seconds",
  "milliseconds",
  "microseconds",
  "nanoseconds",
] as const;
export type Unit = (typeof UNITS)[number];
