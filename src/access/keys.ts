/**
 * Which principal an `X-API-Key` value stands for. The value is hashed once and every
 * source is asked every time, so the work done does not depend on which source knows the
 * key, or whether any does, nor on how many keys they hold: each looks the digest up.
 * The digests of keys lately accepted are remembered, so a client's every request does
 * not hash its key again: an accepted key is checked faster than a refused one, which
 * its answer tells anyway. Refused values are always hashed, so they cannot fill the memo.
 */
import { keyIdOf, secretDigest } from "../http/auth.js";
import { type Principal, staticPrincipal } from "./principal.js";

/** Finds the principal of a presented key (one non-empty header value), or undefined. */
export interface KeySource {
  /** `digest` is the value's {@link secretDigest}, computed once for every source. */
  find(presented: string, digest: string): Principal | undefined;
}

/** Why a request's key was refused, or the principal it was accepted as. */
export type KeyCheck = { ok: true; principal: Principal } | { ok: false; reason: string };

// Refusals are constants, acceptances one per principal: checking a key allocates nothing.
const MISSING: KeyCheck = Object.freeze({
  ok: false,
  reason: "Missing API key: send it in the X-API-Key header",
});
const NOT_ONE: KeyCheck = Object.freeze({ ok: false, reason: "Send exactly one X-API-Key header" });
const EMPTY: KeyCheck = Object.freeze({ ok: false, reason: "Empty API key" });
const INVALID: KeyCheck = Object.freeze({ ok: false, reason: "Invalid API key" });

/** Accepted keys whose digests are remembered; past this the memo starts again, empty. */
export const DIGEST_MEMO_KEYS = 4096;

/** The static keys (API_KEYS): every scope, the server's plan, ids from their hashes. */
export function staticKeys(keys: readonly string[]): KeySource {
  const byDigest = new Map(keys.map((key) => [secretDigest(key), staticPrincipal(keyIdOf(key))]));
  return {
    find: (_presented, digest) => byDigest.get(digest),
  };
}

/**
 * Builds the checker over `sources`, asked in order; every one is asked whatever the
 * earlier ones answered.
 *
 * @example
 * const check = createKeyChecker([staticKeys(["secret"])]);
 * check("secret"); // { ok: true, principal: Principal { id: "2bb80d537b1d", … } }
 */
export function createKeyChecker(sources: readonly KeySource[]): (presented: unknown) => KeyCheck {
  const accepted = new WeakMap<Principal, KeyCheck>();
  const acceptance = (principal: Principal): KeyCheck => {
    let check = accepted.get(principal);
    if (check === undefined) {
      check = Object.freeze({ ok: true, principal });
      accepted.set(principal, check);
    }
    return check;
  };
  // Hashing through the crypto binding is a measurable part of a cheap request's CPU.
  const digests = new Map<string, string>();
  return (presented) => {
    if (presented === undefined) return MISSING;
    // Node joins repeated headers with ", "; no key holds a comma.
    if (typeof presented !== "string" || presented.includes(",")) return NOT_ONE;
    if (presented.length === 0) return EMPTY;
    const remembered = digests.get(presented);
    const digest = remembered ?? secretDigest(presented);
    let found: Principal | undefined;
    for (const source of sources) {
      const principal = source.find(presented, digest);
      if (found === undefined) found = principal;
    }
    if (found === undefined) {
      // A key revoked or rotated away is forgotten at its first refusal, which hashes it
      // anyway: every refusal takes the same time.
      if (remembered !== undefined) {
        digests.delete(presented);
        secretDigest(presented);
      }
      return INVALID;
    }
    if (remembered === undefined) {
      if (digests.size >= DIGEST_MEMO_KEYS) digests.clear();
      digests.set(presented, digest);
    }
    return acceptance(found);
  };
}
