/**
 * Who a request acts for once its key is verified: a principal, with its scopes (which
 * operations it may use) and its plan (its own quota, or the server's). Static keys
 * (API_KEYS) and managed keys (the key store) both become principals, so every surface
 * asks the same questions of one object.
 */
import type { AnyOperation } from "../kit/define.js";

/** A quota of its own: `limit` units per `windowSeconds`. */
export interface Plan {
  limit: number;
  windowSeconds: number;
}

/** The scope that lets a key use everything. */
export const ALL_SCOPES = "*";

/** `area/name`: how scopes, usage and logs name an operation. */
export function operationKey(operation: Pick<AnyOperation, "area" | "name">): string {
  return `${operation.area}/${operation.name}`;
}

/**
 * Whether `scopes` let a key use `operation`: `*`, its area (`math`), or the operation
 * itself (`hash/hmac-md5`).
 */
export function scopesAllow(
  scopes: readonly string[],
  operation: Pick<AnyOperation, "area" | "name">,
): boolean {
  for (const scope of scopes) {
    if (scope === ALL_SCOPES || scope === operation.area || scope === operationKey(operation)) {
      return true;
    }
  }
  return false;
}

/** What a verified key acts as. One shape for static and managed keys. */
export class Principal {
  /** Whether every operation is in scope: the usual case, answered without a lookup. */
  readonly everything: boolean;
  /** Answers per operation, filled as operations are first asked about. */
  private readonly allowed = new WeakMap<object, boolean>();

  constructor(
    /** Stable and not secret: a managed key's id, or a static key's hash-derived id. */
    readonly id: string,
    /** A managed key's display prefix (`ucs_AbCd1234`); null for a static key. */
    readonly prefix: string | null,
    /** A managed key's name; null for a static key. */
    readonly name: string | null,
    readonly scopes: readonly string[],
    /** Its own quota, or null for the server's (RATE_LIMIT). */
    readonly plan: Plan | null,
    /** RFC 3339, or null for never. */
    readonly expiresAt: string | null,
    readonly managed: boolean,
  ) {
    this.everything = scopes.includes(ALL_SCOPES);
  }

  /** Whether this key may use `operation` (see {@link scopesAllow}). */
  allows(operation: AnyOperation): boolean {
    if (this.everything) return true;
    let answer = this.allowed.get(operation);
    if (answer === undefined) {
      answer = scopesAllow(this.scopes, operation);
      this.allowed.set(operation, answer);
    }
    return answer;
  }
}

/** A static key (API_KEYS): every scope, the server's plan, no expiry; `id` from its hash. */
export function staticPrincipal(id: string): Principal {
  return new Principal(id, null, null, [ALL_SCOPES], null, null, false);
}
