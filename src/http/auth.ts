/**
 * The API-key layer. Keys are compared in constant time without hashing per request
 * (see {@link constantTimeMatcher}); the SHA-256 of each key is computed once, for its
 * public id.
 */
import { hash } from "node:crypto";

export const API_KEY_HEADER = "x-api-key";
export const WWW_AUTHENTICATE = 'APIKey realm="utility-calculation-service", header="X-API-Key"';

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

/** Code units every secret is padded to (more when a configured one is longer). */
const MIN_SECRET_UNITS = 256;

/**
 * Compares a presented string with each of `secrets` in constant time: over one width,
 * the longest secret's (at least 256 UTF-16 code units), code units XORed into one
 * difference with no early exit, so the time depends on the width and the number of
 * secrets, not on which one matched or how much of one. Answers the index matched, or -1.
 * Plain JavaScript: writing both into buffers and comparing them with `timingSafeEqual`
 * took four calls into C++ per request, which cost more than the comparison.
 */
function constantTimeMatcher(secrets: readonly string[]): (presented: string) => number {
  const width = Math.max(MIN_SECRET_UNITS, ...secrets.map((secret) => secret.length));
  const known = secrets.map((secret) => {
    const units = new Uint16Array(width);
    for (let i = 0; i < secret.length; i++) units[i] = secret.charCodeAt(i);
    return { units, length: secret.length };
  });
  return (presented) => {
    const length = presented.length;
    // Longer than every secret: it matches none, whatever its content.
    if (length > width) return -1;
    let matched = -1;
    for (let k = 0; k < known.length; k++) {
      const { units, length: secretLength } = known[k] as (typeof known)[number];
      let difference = length ^ secretLength;
      for (let i = 0; i < width; i++) {
        difference |= (i < length ? presented.charCodeAt(i) : 0) ^ (units[i] as number);
      }
      if (difference === 0) matched = k;
    }
    return matched;
  };
}

/**
 * Builds the checker for a set of keys, compared in constant time (see
 * {@link constantTimeMatcher}).
 *
 * @example
 * const check = createKeyChecker(["secret"]);
 * check("secret"); // { ok: true, keyId: "2bb80d537b1d" }
 */
export function createKeyChecker(keys: readonly string[]): (presented: unknown) => KeyCheck {
  const match = constantTimeMatcher(keys);
  const accepted = keys.map((key) => Object.freeze({ ok: true, keyId: keyIdOf(key) }) as KeyCheck);
  return (presented) => {
    if (presented === undefined) return MISSING;
    // Node joins repeated headers with ", "; configured keys never hold a comma.
    if (typeof presented !== "string" || presented.includes(",")) return NOT_ONE;
    if (presented.length === 0) return EMPTY;
    const index = match(presented);
    return index === -1 ? INVALID : (accepted[index] as KeyCheck);
  };
}

/**
 * A constant-time check of one secret (a bearer token), compared as keys are.
 *
 * @example
 * const matches = createSecretMatcher("token");
 * matches("token"); // true
 */
export function createSecretMatcher(secret: string): (presented: string) => boolean {
  const match = constantTimeMatcher([secret]);
  return (presented) => match(presented) === 0;
}

/** The public id of a key: 12 hex digits of its SHA-256. */
export function keyIdOf(key: string): string {
  return hash("sha256", key, "hex").slice(0, 12);
}
