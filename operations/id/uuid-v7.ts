import { defineOperation, z } from "#kit";
import {
  counterStart,
  countParam,
  idsCost,
  isoTime,
  MAX_TIMESTAMP,
  randomBytes,
  randomnessParam,
  timestampOf,
  timestampParam,
  toBigInt,
  uuidText,
} from "./_id.js";

/** Bits after the timestamp that are neither version nor variant: rand_a (12) and rand_b (62). */
const RANDOM_BITS = 74;
const RAND_B_BITS = 62n;
const RAND_B_MASK = (1n << RAND_B_BITS) - 1n;

/** One UUIDv7 of a timestamp and a 74-bit random value. */
function uuidV7(timestamp: number, random: bigint): string {
  const bytes = Buffer.allocUnsafe(16);
  bytes.writeUIntBE(timestamp, 0, 6);
  const randA = Number(random >> RAND_B_BITS);
  bytes[6] = 0x70 | (randA >> 8);
  bytes[7] = randA & 0xff;
  bytes.writeBigUInt64BE((2n << 62n) | (random & RAND_B_MASK), 8);
  return uuidText(bytes);
}

export default defineOperation({
  area: "id",
  name: "uuid-v7",
  summary: "Time-ordered UUIDs, version 7 (RFC 9562)",
  description: [
    "Makes `count` (1 to 1,000) version 7 UUIDs (RFC 9562 section 5.7): the Unix time in " +
      "milliseconds in the first 48 bits, then the version (7), 74 random bits from the " +
      "system's cryptographically secure generator around the variant bits (`10`). They sort " +
      "by creation time as text and as bytes, which keeps database indexes compact.",
    "The UUIDs of one call share one timestamp and are strictly increasing: the first takes " +
      "the drawn bits, and each next one adds 1 to its 74 random bits (RFC 9562 section 6.2, " +
      "method 2). When the drawn bits are too close to the top to count on through the batch, " +
      "their top bit is cleared first. Every call reads the clock and draws new bits, so every " +
      "call answers differently, and answers are sent with `Cache-Control: no-store`. Order " +
      "across calls is only by millisecond: two calls within one millisecond may interleave.",
    "`timestamp` (milliseconds since 1970-01-01T00:00:00Z, 0 to 2^48 − 1) writes a chosen " +
      "time instead of the clock's: for example the smallest UUIDv7 of an instant, with " +
      "`randomness` of zeros, to bound a range query. `randomness` is for reproducible " +
      "fixtures and tests only: hexadecimal of exactly 10 bytes, the bytes after the " +
      "timestamp before the version and variant bits are written over them. Bits you chose " +
      "are as guessable as your choice. Malformed `randomness`, or given bits too close to " +
      "the top to count on through the batch, is refused with a 422 at `randomness`.",
  ].join("\n\n"),
  input: z.object({
    count: countParam("UUIDs"),
    timestamp: timestampParam(),
    randomness: randomnessParam(
      "For tests: hex of 10 bytes to use instead of drawn bits (20 digits).",
      20,
    ),
  }),
  output: z.object({
    uuids: z.array(z.string()).describe("The UUIDs, lowercase, in increasing order."),
    timestamp: z.int().describe("The milliseconds since the Unix epoch written in them."),
    time: z.string().describe("The same instant in ISO 8601, UTC."),
  }),
  nondeterministic:
    "Without `timestamp` the clock is read, and without `randomness` new random bits are drawn: every call answers different UUIDs.",
  examples: [
    {
      title: "The smallest UUIDv7 of an instant, to start a range",
      input: { timestamp: 1735689600000, randomness: "00000000000000000000" },
      output: {
        uuids: ["01941f29-7c00-7000-8000-000000000000"],
        timestamp: 1735689600000,
        time: "2025-01-01T00:00:00.000Z",
      },
    },
    {
      title: "Three from given bits count on by one",
      input: { count: 3, timestamp: 1735689600000, randomness: "0123456789abcdef0123" },
      output: {
        uuids: [
          "01941f29-7c00-7123-8567-89abcdef0123",
          "01941f29-7c00-7123-8567-89abcdef0124",
          "01941f29-7c00-7123-8567-89abcdef0125",
        ],
        timestamp: 1735689600000,
        time: "2025-01-01T00:00:00.000Z",
      },
    },
  ],
  cost: ({ count }) => idsCost(count, 36),
  handler: ({ count, timestamp, randomness }) => {
    const time = timestampOf(timestamp);
    // The clock past 2^48 ms (year 10889) is not a case to plan for; refuse it rather than wrap.
    if (time > MAX_TIMESTAMP) throw new Error("the clock is past the 48-bit timestamp range");
    const bytes = randomBytes(randomness, 10);
    bytes[0] = (bytes[0] as number) & 0x0f;
    bytes[2] = (bytes[2] as number) & 0x3f;
    const drawn = (toBigInt(bytes.subarray(0, 2)) << RAND_B_BITS) | toBigInt(bytes.subarray(2, 10));
    let random = counterStart(drawn, RANDOM_BITS, count, randomness !== undefined);
    const uuids: string[] = [];
    for (let i = 0; i < count; i++, random++) uuids.push(uuidV7(time, random));
    return { uuids, timestamp: time, time: isoTime(time) };
  },
});
