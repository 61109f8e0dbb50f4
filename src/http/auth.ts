/**
 * Secrets compared in constant time without hashing per request (see
 * {@link constantTimeMatcher}): the static API keys (access/keys.ts) and the metrics
 * token. The SHA-256 of each static key is computed once, for its public id.
 */
import { hash } from "node:crypto";

export const API_KEY_HEADER = "x-api-key";
export const WWW_AUTHENTICATE = 'APIKey realm="utility-calculation-service", header="X-API-Key"';

declare module "fastify" {
  interface FastifyRequest {
    /** Set once the key is verified: its principal's id, safe to log and to count by. */
    apiKeyId?: string;
  }
}

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
export function constantTimeMatcher(secrets: readonly string[]): (presented: string) => number {
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
