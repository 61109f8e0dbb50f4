/**
 * The API-key layer. Keys are compared in constant time without hashing per request
 * (see {@link createKeyChecker}); the SHA-256 of each key is computed once, for its
 * public id.
 */
import { hash, timingSafeEqual } from "node:crypto";

export const API_KEY_HEADER = "x-api-key";
export const WWW_AUTHENTICATE = 'APIKey realm="utility-calculation-service", header="X-API-Key"';

/** Bytes every key is padded to (more when a configured key is longer). */
const MIN_SLOT_BYTES = 256;
/** The slot starts with the key's length in bytes, so "k" and "k\0" never compare equal. */
const LENGTH_BYTES = 4;

declare module "fastify" {
  interface FastifyRequest {
    /** Set once the key is verified: a short hash of the key, safe to log and to count by. */
    apiKeyId?: string;
  }
}

/** Why a request's key was refused, or the id of the key that was accepted. */
export type KeyCheck = { ok: true; keyId: string } | { ok: false; reason: string };

// Answers are constants (per key for an accepted one): checking a key allocates nothing.
const MISSING: KeyCheck = Object.freeze({
  ok: false,
  reason: "Missing API key: send it in the X-API-Key header",
});
const NOT_ONE: KeyCheck = Object.freeze({ ok: false, reason: "Send exactly one X-API-Key header" });
const EMPTY: KeyCheck = Object.freeze({ ok: false, reason: "Empty API key" });
const INVALID: KeyCheck = Object.freeze({ ok: false, reason: "Invalid API key" });

/** Writes `key` into `slot` as its UTF-8 length, its bytes, then zeros; false if it does not fit. */
function fill(slot: Buffer, key: string): boolean {
  // UTF-8 never takes more than 3 bytes per UTF-16 unit: only a long key needs measuring.
  if (
    key.length * 3 > slot.length - LENGTH_BYTES &&
    Buffer.byteLength(key) > slot.length - LENGTH_BYTES
  ) {
    return false;
  }
  const written = slot.write(key, LENGTH_BYTES, "utf8");
  slot.writeUInt32LE(written, 0);
  slot.fill(0, LENGTH_BYTES + written);
  return true;
}

/** Code units every key is padded to (more when a configured key is longer). */
const MIN_KEY_UNITS = 256;

/**
 * Builds the checker for a set of keys. The presented key is compared with every
 * configured key over the same width, the longest key's (at least 256 UTF-16 code units),
 * its code units XORed into one difference with no early exit: the time depends on the
 * width and the number of keys, not on which key matched or how much of one. Plain
 * JavaScript: four calls into C++ per request (write, fill, compare) cost more than the
 * comparison.
 *
 * @example
 * const check = createKeyChecker(["secret"]);
 * check("secret"); // { ok: true, keyId: "2bb80d537b1d" }
 */
export function createKeyChecker(keys: readonly string[]): (presented: unknown) => KeyCheck {
  const width = Math.max(MIN_KEY_UNITS, ...keys.map((key) => key.length));
  const known = keys.map((key) => {
    const units = new Uint16Array(width);
    for (let i = 0; i < key.length; i++) units[i] = key.charCodeAt(i);
    return {
      units,
      length: key.length,
      accepted: Object.freeze({ ok: true, keyId: keyIdOf(key) }) as KeyCheck,
    };
  });
  return (presented) => {
    if (presented === undefined) return MISSING;
    // Node joins repeated headers with ", "; configured keys never hold a comma.
    if (typeof presented !== "string" || presented.includes(",")) return NOT_ONE;
    const length = presented.length;
    if (length === 0) return EMPTY;
    // Longer than every configured key: it matches none, whatever its content.
    if (length > width) return INVALID;
    let matched = INVALID;
    for (let k = 0; k < known.length; k++) {
      const key = known[k] as (typeof known)[number];
      const units = key.units;
      let difference = length ^ key.length;
      for (let i = 0; i < width; i++) {
        difference |= (i < length ? presented.charCodeAt(i) : 0) ^ (units[i] as number);
      }
      if (difference === 0) matched = key.accepted;
    }
    return matched;
  };
}

/**
 * A constant-time check of one secret (a bearer token), laid out as keys are: the time
 * depends on neither the secret nor how much of it matched.
 *
 * @example
 * const matches = createSecretMatcher("token");
 * matches("token"); // true
 */
export function createSecretMatcher(secret: string): (presented: string) => boolean {
  const slotBytes = LENGTH_BYTES + Math.max(MIN_SLOT_BYTES, Buffer.byteLength(secret));
  const expected = Buffer.alloc(slotBytes);
  fill(expected, secret);
  const candidate = Buffer.alloc(slotBytes);
  return (presented) => fill(candidate, presented) && timingSafeEqual(candidate, expected);
}

/** The public id of a key: 12 hex digits of its SHA-256. */
export function keyIdOf(key: string): string {
  return hash("sha256", key, "hex").slice(0, 12);
}
