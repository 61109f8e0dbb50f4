/**
 * What the schemas of the datetime, finance, units, text, case/convert and crypto/jwt-decode
 * operations cannot say, for the fuzz suite (`fuzz.test.ts` spreads it into its table):
 * valid values are drawn from pools of real dates, zones, durations and tokens, and the share
 * of 200s required is lowered where a valid-looking combination is a documented 422.
 */
import { createHmac } from "node:crypto";
import fc from "fast-check";
import type { InvalidCombination, Values } from "./generators.js";

interface Semantics {
  why: string;
  refine?: (values: Values) => fc.Arbitrary<Values>;
  minOk?: number;
  invalid?: InvalidCombination[];
}

const DATES = [
  "2024-01-31",
  "2024-02-29",
  "2000-01-01",
  "1999-12-31",
  "+010000-01-01",
  "-000050-03-01",
];
const DATE_TIMES = [
  "2024-01-31T10:00",
  "2024-03-10T02:30:00.5",
  "1970-01-01T00:00",
  "2024-10-27T02:30",
];
const ABSOLUTE = [
  "2024-01-31T10:00:00Z",
  "2024-03-10T02:30:00+05:30",
  "2024-03-09T12:00-05:00[America/New_York]",
  "1969-12-31T23:59:59.999999999Z",
  "2024-10-27T01:30+01:00[Europe/Berlin]",
];
const ZONES = [
  "UTC",
  "Europe/Paris",
  "asia/kolkata",
  "+05:45",
  "America/St_Johns",
  "Pacific/Kiritimati",
];
const DURATIONS = ["P1M", "-P1Y2M3DT4H5M6.5S", "PT90M", "P2W", "PT0S", "P1DT12H"];

const pick = (pool: string[]) => fc.constantFrom(...pool).map((value) => [value]);
const without = (values: Values, ...names: string[]) => {
  const out = { ...values };
  for (const name of names) delete out[name];
  return out;
};
const maybe = (arb: fc.Arbitrary<string[]>) => fc.option(arb, { nil: undefined });
const setOrDrop = (values: Values, name: string, value: string[] | undefined) =>
  value === undefined ? without(values, name) : { ...values, [name]: value };

const sign = (header: string, payload: string, secret: string) => {
  const input = `${Buffer.from(header).toString("base64url")}.${Buffer.from(payload).toString("base64url")}`;
  return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`;
};
const TOKENS = [
  sign('{"alg":"HS256","typ":"JWT"}', '{"sub":"1","iat":1516239022}', "secret"),
  sign('{"alg":"none"}', '{"sub":"admin"}', "x"),
  sign('{"alg":"RS256","kid":"k"}', '{"aud":["a","b"],"exp":1700000000}', "x"),
  sign('{"alg":"HS256"}', '{"q":"\\"é😀\\""}', "secret"),
];

export const CATALOGUE_C_SEMANTICS: Record<string, Semantics> = {
  "/v1/datetime/difference": {
    why:
      "start and end are dates, date-times or instants of one kind (the schema says only string); " +
      "dates take no unit below days; a count past 2^53 − 1 nanoseconds is a 422",
    refine: (values) =>
      fc
        .tuple(fc.constantFrom("date", "date-time", "absolute"), fc.integer(), maybe(pick(ZONES)))
        .chain(([kind, _seed, zone]) => {
          const pool = kind === "date" ? DATES : kind === "date-time" ? DATE_TIMES : ABSOLUTE;
          const largest =
            kind === "date"
              ? pick(["auto", "years", "months", "weeks", "days"])
              : fc.constant(values.largestUnit ?? (["auto"] as string[]));
          return fc.tuple(pick(pool), pick(pool), largest).map(([start, end, largestUnit]) => {
            const out = without(values, "smallestUnit");
            return setOrDrop(
              { ...out, start, end, largestUnit },
              "timeZone",
              kind === "absolute" ? zone : undefined,
            );
          });
        }),
    minOk: 0.7,
  },
  "/v1/datetime/add-duration": {
    why:
      "start is a date, date-time or instant and duration an ISO 8601 duration (the schema says " +
      "only string); timeZone only with an instant; overflow=reject refuses a missing day",
    refine: (values) =>
      fc
        .tuple(pick([...DATES, ...DATE_TIMES, ...ABSOLUTE]), pick(DURATIONS), maybe(pick(ZONES)))
        .map(([start, duration, zone]) =>
          setOrDrop(
            { ...values, start, duration },
            "timeZone",
            /(?:Z|[+-]\d\d:\d\d)$/.test(start[0] as string) ? zone : undefined,
          ),
        ),
    minOk: 0.7,
  },
  "/v1/datetime/convert-time-zone": {
    why:
      "dateTime is an instant, or a local date-time with `from` (a real zone); `to` is a real zone; " +
      "disambiguation=reject refuses a skipped or repeated local time",
    refine: (values) =>
      fc
        .tuple(fc.boolean(), pick(DATE_TIMES), pick(ABSOLUTE), pick(ZONES), pick(ZONES))
        .map(([local, plain, absolute, from, to]) =>
          local
            ? { ...values, dateTime: plain, from, to }
            : without({ ...values, dateTime: absolute, to }, "from"),
        ),
    minOk: 0.7,
  },
  "/v1/datetime/from-epoch": {
    why: "value must be whole nanoseconds in its unit and within Temporal's range; timeZone a real zone",
    refine: (values) =>
      fc
        .tuple(
          pick(["0", "1700000000", "-1.5", "1732713000123", "8.64e12", "1e-9"]),
          maybe(pick(ZONES)),
        )
        .map(([value, zone]) => setOrDrop({ ...values, value }, "timeZone", zone)),
    minOk: 0.6,
  },
  "/v1/datetime/to-epoch": {
    why: "dateTime is an instant, or a local date or date-time with timeZone (a real zone)",
    refine: (values) =>
      fc
        .tuple(fc.boolean(), pick([...DATES, ...DATE_TIMES]), pick(ABSOLUTE), pick(ZONES))
        .map(([local, plain, absolute, zone]) =>
          local
            ? { ...values, dateTime: plain, timeZone: zone }
            : without({ ...values, dateTime: absolute }, "timeZone"),
        ),
    minOk: 0.9,
  },
  "/v1/datetime/iso-week": {
    why: "date is an ISO 8601 calendar date (the schema says only string)",
    refine: (values) => pick(DATES).map((date) => ({ ...values, date })),
  },
  "/v1/finance/compound-interest": {
    why:
      "years × compoundings a year must be whole; a rate below −100 × n and amounts past 10,000 " +
      "digits are 422s",
    refine: (values) =>
      fc
        .tuple(fc.integer({ min: 0, max: 40 }), pick(["5", "0", "-2.5", "3.875", "100", "0.0001"]))
        .map(([years, rate]) => ({
          ...values,
          principal: [(values.principal?.[0] ?? "1").replace(/^[+-]/, "")],
          years: [String(years)],
          rate,
        })),
    minOk: 0.8,
  },
  "/v1/finance/loan-payment": {
    why: "principal may not have more decimals than decimalPlaces; a power past 40,000 digits is a 422",
    refine: (values) =>
      fc
        .tuple(pick(["1000", "250000", "0", "99.99", "1"]), pick(["6", "0", "3.875", "12.5"]))
        .map(([principal, rate]) => without({ ...values, principal, rate }, "decimalPlaces")),
  },
  "/v1/units/length": { why: "a result past 10,000 digits is a 422", minOk: 0.5 },
  "/v1/units/mass": { why: "a result past 10,000 digits is a 422", minOk: 0.5 },
  "/v1/units/volume": { why: "a result past 10,000 digits is a 422", minOk: 0.5 },
  "/v1/units/data-size": { why: "a result past 10,000 digits is a 422", minOk: 0.5 },
  "/v1/units/temperature": {
    why: "a temperature below absolute zero and a result past 10,000 digits are 422s",
    refine: (values) =>
      fc.constant({ ...values, value: [(values.value?.[0] ?? "0").replace(/^[+-]/, "")] }),
    minOk: 0.5,
  },
  "/v1/text/statistics": {
    why: "non-ASCII text past ~6,600 UTF-16 units passes the request budget (422)",
    minOk: 0.6,
  },
  "/v1/text/levenshtein": {
    why: "a string lowercasing lengthens past 2,000 characters is a 422",
    minOk: 0.9,
  },
  "/v1/crypto/jwt-decode": {
    why: "token is a JWT (the schema says only string); secret must be valid in secretEncoding",
    refine: (values) =>
      fc
        .tuple(pick(TOKENS), maybe(pick(["secret", "", "x".repeat(100)])))
        .map(([token, secret]) =>
          setOrDrop(without({ ...values, token }, "secretEncoding"), "secret", secret),
        ),
  },
};
