/**
 * What the `id/*` generators share: reading caller-given random bits, counting on from
 * them within a batch, and writing UUIDs and ULIDs.
 */
import { randomFillSync } from "node:crypto";
import { CalculationError, type Cost, ITEM_WORK, integer, jsonBytes, text } from "#kit";
import { decodeHex } from "../encoding/_codec.js";

/** Most identifiers one call makes. */
export const MAX_COUNT = 1000;

/** Latest millisecond a 48-bit timestamp holds: 8919-10-17 (UUIDv7) / 10889-08-02 (ULID). */
export const MAX_TIMESTAMP = 2 ** 48 - 1;

/**
 * The `count` parameter.
 *
 * @example
 * const input = z.object({ count: countParam("UUIDs") });
 */
export function countParam(what: string) {
  return integer({
    min: 1,
    max: MAX_COUNT,
    description: `How many ${what} to make (1 to ${MAX_COUNT}, default 1).`,
  }).default(1);
}

/**
 * The `timestamp` parameter of the time-ordered identifiers.
 *
 * @example
 * const input = z.object({ timestamp: timestampParam() });
 */
export function timestampParam() {
  return integer({
    min: 0,
    max: MAX_TIMESTAMP,
    description:
      "Milliseconds since 1970-01-01T00:00:00Z to write in the identifiers (0 to 2^48 − 1); " +
      "the current time when absent.",
  }).optional();
}

/**
 * The optional `randomness` parameter: hexadecimal, either case, up to `maxDigits` long
 * (the exact length is checked with the count, in {@link randomBytes}).
 */
export function randomnessParam(description: string, maxDigits: number) {
  return text({ min: 1, max: maxDigits, description }).optional();
}

/**
 * `byteCount` random bytes: the caller's `randomness` (hex of exactly that many bytes), or
 * fresh ones from the system's CSPRNG.
 *
 * @throws {CalculationError} at `randomness` when it is not hex of `byteCount` bytes
 */
export function randomBytes(randomness: string | undefined, byteCount: number): Buffer {
  if (randomness === undefined) return randomFillSync(Buffer.allocUnsafe(byteCount));
  const decoded = decodeHex(randomness);
  if (!decoded.ok) {
    throw new CalculationError(`randomness is not valid hexadecimal: it ${decoded.reason}`, [
      "randomness",
    ]);
  }
  if (decoded.bytes.length !== byteCount) {
    throw new CalculationError(
      `randomness must be ${byteCount} bytes (${2 * byteCount} hexadecimal digits), not ${decoded.bytes.length}`,
      ["randomness"],
    );
  }
  return decoded.bytes;
}

/** The time of a millisecond timestamp, in ISO 8601 (UTC, milliseconds). */
export function isoTime(timestamp: number): string {
  return new Date(timestamp).toISOString();
}

/** The current time, or the caller's, as a 48-bit timestamp. */
export function timestampOf(given: number | undefined): number {
  return given ?? Date.now();
}

/**
 * The cost of `count` identifiers of `length` characters each: a few microseconds and
 * their bytes in a JSON list.
 */
export function idsCost(count: number, length: number): Cost {
  return { work: count * ITEM_WORK, bytes: count * (jsonBytes("x".repeat(length)) + 1) + 256 };
}

const HEX = "0123456789abcdef";

/**
 * The 16 bytes as a UUID's text: 32 lowercase hex digits in groups of 8-4-4-4-12.
 *
 * @example
 * uuidText(Buffer.alloc(16)); // "00000000-0000-0000-0000-000000000000"
 */
export function uuidText(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < 16; i++) {
    const byte = bytes[i] as number;
    out += HEX.charAt(byte >> 4) + HEX.charAt(byte & 15);
    if (i === 3 || i === 5 || i === 7 || i === 9) out += "-";
  }
  return out;
}

/** Crockford's base32 alphabet: no I, L, O or U. */
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * `value` as `digits` characters of Crockford base32, most significant first.
 *
 * @example
 * crockford(31n, 2); // "0Z"
 */
export function crockford(value: bigint, digits: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < digits; i++) {
    out = CROCKFORD.charAt(Number(rest & 31n)) + out;
    rest >>= 5n;
  }
  return out;
}

/** `bytes` (big-endian) as one unsigned integer. */
export function toBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

/**
 * The first of `count` consecutive values of a `bits`-wide counter starting at `start`:
 * `start` itself, or, for drawn bits that would overflow within the batch, `start` with its
 * top bit cleared (RFC 9562 section 6.2's guard against rollover). Caller-given bits that
 * would overflow are refused.
 *
 * @throws {CalculationError} at `randomness` for given bits that overflow within the batch
 */
export function counterStart(start: bigint, bits: number, count: number, given: boolean): bigint {
  const limit = 1n << BigInt(bits);
  if (start + BigInt(count - 1) < limit) return start;
  if (given) {
    throw new CalculationError(
      `randomness is too close to the top of its ${bits} bits to count on ${count - 1} times within the batch`,
      ["randomness"],
    );
  }
  return start & ((limit >> 1n) - 1n);
}
