/**
 * The API-key layer. Keys are compared in constant time: both sides are hashed to a
 * fixed length first (timingSafeEqual needs equal lengths), and every configured key is
 * compared, so the time does not tell which one matched or how much of it.
 */
import { hash, timingSafeEqual } from "node:crypto";

export const API_KEY_HEADER = "x-api-key";
export const WWW_AUTHENTICATE = 'APIKey realm="utility-calculation-service", header="X-API-Key"';

// One-shot hashing: no Hash object per request.
const digest = (key: string) => hash("sha256", key, "buffer");

declare module "fastify" {
  interface FastifyRequest {
    /** Set once the key is verified: a short hash of the key, safe to log and to count by. */
    apiKeyId?: string;
  }
}

/** Why a request's key was refused, or the id of the key that was accepted. */
export type KeyCheck = { ok: true; keyId: string } | { ok: false; reason: string };

/**
 * Builds the checker for a set of keys.
 *
 * @example
 * const check = createKeyChecker(["secret"]);
 * check("secret"); // { ok: true, keyId: "2bb80d537b1d" }
 */
export function createKeyChecker(keys: readonly string[]): (presented: unknown) => KeyCheck {
  const known = keys.map((key) => ({ digest: digest(key), id: keyIdOf(key) }));
  return (presented) => {
    if (presented === undefined)
      return { ok: false, reason: "Missing API key: send it in the X-API-Key header" };
    // Node joins repeated headers with ", "; configured keys never hold a comma.
    if (typeof presented !== "string" || presented.includes(",")) {
      return { ok: false, reason: "Send exactly one X-API-Key header" };
    }
    if (presented.length === 0) return { ok: false, reason: "Empty API key" };
    const candidate = digest(presented);
    let matchedId: string | undefined;
    for (const key of known) {
      if (timingSafeEqual(candidate, key.digest)) matchedId = key.id;
    }
    return matchedId ? { ok: true, keyId: matchedId } : { ok: false, reason: "Invalid API key" };
  };
}

/** The public id of a key: 12 hex digits of its SHA-256. */
export function keyIdOf(key: string): string {
  return digest(key).toString("hex").slice(0, 12);
}
