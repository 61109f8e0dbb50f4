import { defineOperation, z } from "#kit";
import {
  counterStart,
  countParam,
  crockford,
  idsCost,
  isoTime,
  randomBytes,
  randomnessParam,
  timestampOf,
  timestampParam,
  toBigInt,
} from "./_id.js";

const RANDOM_BITS = 80;

export default defineOperation({
  area: "id",
  name: "ulid",
  summary: "Time-ordered ULIDs (Universally Unique Lexicographically Sortable Identifiers)",
  description: [
    "Makes `count` (1 to 1,000) ULIDs as the ULID specification defines them: 48 bits of Unix " +
      "time in milliseconds and 80 random bits from the system's cryptographically secure " +
      "generator, written as 26 characters of Crockford's base32 (`0-9`, `A-Z` without `I`, " +
      "`L`, `O`, `U`), the time first, so they sort by creation time as text.",
    "The ULIDs of one call share one timestamp and are strictly increasing, as the " +
      "specification's monotonic generator makes them: the first takes the drawn bits, and " +
      "each next one adds 1 to its 80 random bits. When the drawn bits are too close to the " +
      "top to count on through the batch, their top bit is cleared first. Every call reads " +
      "the clock and draws new bits, so every call answers differently, and answers are sent " +
      "with `Cache-Control: no-store`.",
    "`timestamp` (milliseconds since 1970-01-01T00:00:00Z, 0 to 2^48 − 1) writes a chosen " +
      "time instead of the clock's (with `randomness` of zeros: the smallest ULID of an " +
      "instant). `randomness` is for reproducible fixtures and tests only: hexadecimal of " +
      "exactly 10 bytes. Bits you chose are as guessable as your choice. Malformed " +
      "`randomness`, or given bits too close to the top to count on through the batch, is " +
      "refused with a 422 at `randomness`.",
  ].join("\n\n"),
  input: z.object({
    count: countParam("ULIDs"),
    timestamp: timestampParam(),
    randomness: randomnessParam(
      "For tests: hex of 10 bytes to use instead of drawn bits (20 digits).",
      20,
    ),
  }),
  output: z.object({
    ulids: z.array(z.string()).describe("The ULIDs, 26 characters each, in increasing order."),
    timestamp: z.int().describe("The milliseconds since the Unix epoch written in them."),
    time: z.string().describe("The same instant in ISO 8601, UTC."),
  }),
  nondeterministic:
    "Without `timestamp` the clock is read, and without `randomness` new random bits are drawn: every call answers different ULIDs.",
  examples: [
    {
      title: "The smallest ULID of an instant",
      input: { timestamp: 1735689600000, randomness: "00000000000000000000" },
      output: {
        ulids: ["01JGFJJZ000000000000000000"],
        timestamp: 1735689600000,
        time: "2025-01-01T00:00:00.000Z",
      },
    },
    {
      title: "Two from given bits count on by one",
      input: { count: 2, timestamp: 1469918176385, randomness: "0123456789abcdef0123" },
      output: {
        ulids: ["01ARYZ6S4104HMASW9NF6YY093", "01ARYZ6S4104HMASW9NF6YY094"],
        timestamp: 1469918176385,
        time: "2016-07-30T22:36:16.385Z",
      },
    },
  ],
  cost: ({ count }) => idsCost(count, 26),
  handler: ({ count, timestamp, randomness }) => {
    const time = timestampOf(timestamp);
    const drawn = toBigInt(randomBytes(randomness, 10));
    let random = counterStart(drawn, RANDOM_BITS, count, randomness !== undefined);
    const prefix = crockford(BigInt(time), 10);
    const ulids: string[] = [];
    for (let i = 0; i < count; i++, random++) ulids.push(prefix + crockford(random, 16));
    return { ulids, timestamp: time, time: isoTime(time) };
  },
});
