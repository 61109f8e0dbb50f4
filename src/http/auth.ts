/**
 * Secrets checked by their SHA-256 ({@link secretDigest}): the API keys (access/keys.ts)
 * and the metrics token. The presented value is hashed once per request.
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

/**
 * SHA-256 of a secret, in hex: what secrets are looked up and compared by. One call into
 * C++ whatever the number of keys held (comparing the presented value with each key in
 * constant time cost as much for one key and grew with every key added), and a lookup or
 * comparison of digests reveals nothing of the secret itself.
 */
export function secretDigest(secret: string): string {
  return hash("sha256", secret, "hex");
}

/**
 * A check of one secret (a bearer token) by its digest, as keys are checked.
 *
 * @example
 * const matches = createSecretMatcher("token");
 * matches("token"); // true
 */
export function createSecretMatcher(secret: string): (presented: string) => boolean {
  const digest = secretDigest(secret);
  return (presented) => secretDigest(presented) === digest;
}

/** The public id of a key: 12 hex digits of its SHA-256. */
export function keyIdOf(key: string): string {
  return secretDigest(key).slice(0, 12);
}
