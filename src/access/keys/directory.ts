/**
 * The managed keys, held in the process: every key of the store by the hash of its
 * secret, so verifying a key makes no database round trip and costs the same (one
 * lookup of the digest the key checker made) whether the key is valid, unknown, revoked,
 * disabled or expired. A value without the managed keys' public `ucs_` prefix cannot be
 * one and is not looked up: what that skips depends on what the client sent, not on any
 * key held. Changes are read by polling the store's change counter, so a change made by
 * any process is seen here within one poll (and at once in the process that made it,
 * which refreshes after each write). With the store unreachable the keys already held
 * keep working; a refresh that fails is retried at the next poll.
 */

import type { KeySource } from "../keys.js";
import { Principal } from "../principal.js";
import type { KeyRecord, KeyStore } from "./store.js";
import { SECRET_PREFIX } from "./store.js";

/** The longest value worth hashing: a managed key is `ucs_` and 40 characters. */
const MAX_PRESENTED = 256;

/** How often the store's change counter is read (changes reach every replica within it). */
export const KEY_POLL_MS = 1000;

/** A managed key as the process holds it: its record and the principal it acts as. */
interface Held {
  record: KeyRecord;
  principal: Principal;
  /** When this secret stops working (ms): its expiry, or a rolled key's overlap; else Infinity. */
  validUntil: number;
}

export interface KeyDirectory extends KeySource {
  /** Reads every key; rejects when the store cannot be read (the service must not start). */
  start(): Promise<void>;
  /** Reads what changed since the last read (after a write here: the change is seen at once). */
  refresh(): Promise<void>;
  /** The held record of key `id`, if it is neither revoked nor unknown. */
  record(id: string): KeyRecord | undefined;
  /** Stops polling. */
  close(): void;
}

export interface DirectoryOptions {
  pollMs?: number;
  /** Told of each failed refresh (the store unreachable). */
  onError?: (error: Error) => void;
  /** The clock, in ms (tests). */
  now?: () => number;
}

/** The principal a managed key's record stands for. */
export function principalOf(record: KeyRecord): Principal {
  return new Principal(
    record.id,
    record.prefix,
    record.name,
    record.scopes,
    record.plan,
    record.expiresAt,
    true,
  );
}

/** Builds the directory over `store`; call `start()` before serving. */
export function createKeyDirectory(store: KeyStore, options: DirectoryOptions = {}): KeyDirectory {
  const { pollMs = KEY_POLL_MS, onError = () => {}, now = Date.now } = options;
  const byHash = new Map<string, Held>();
  /** The hashes each key is held under (its secret, and a rolled one's previous). */
  const hashesOf = new Map<string, string[]>();
  const records = new Map<string, KeyRecord>();
  let version = 0;
  let timer: NodeJS.Timeout | undefined;
  let reading: Promise<void> | undefined;

  function forget(id: string): void {
    for (const hash of hashesOf.get(id) ?? []) byHash.delete(hash);
    hashesOf.delete(id);
    records.delete(id);
  }

  function hold(record: KeyRecord): void {
    forget(record.id);
    if (record.revokedAt !== null) return;
    const principal = principalOf(record);
    const expires =
      record.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(record.expiresAt);
    const hashes = [record.hash];
    byHash.set(record.hash, { record, principal, validUntil: expires });
    if (record.previousHash !== null && record.previousValidUntil !== null) {
      byHash.set(record.previousHash, {
        record,
        principal,
        validUntil: Math.min(expires, Date.parse(record.previousValidUntil)),
      });
      hashes.push(record.previousHash);
    }
    hashesOf.set(record.id, hashes);
    records.set(record.id, record);
  }

  async function read(): Promise<void> {
    const changes = await store.changedSince(version);
    for (const record of changes.records) hold(record);
    version = Math.max(version, changes.version);
  }

  /** One read at a time; a refresh asked for during one waits for it, then reads again. */
  function refresh(): Promise<void> {
    const next = (reading ?? Promise.resolve()).catch(() => {}).then(read);
    reading = next;
    return next;
  }

  function poll(): void {
    refresh().catch((error: unknown) =>
      onError(error instanceof Error ? error : new Error(String(error))),
    );
  }

  return {
    async start() {
      await refresh();
      timer = setInterval(poll, pollMs);
      timer.unref();
    },
    refresh,
    record: (id) => records.get(id),
    close() {
      clearInterval(timer);
    },
    find(presented, digest) {
      if (presented.length > MAX_PRESENTED || !presented.startsWith(SECRET_PREFIX)) {
        return undefined;
      }
      const held = byHash.get(digest);
      if (held === undefined) return undefined;
      if (held.record.disabled || now() >= held.validUntil) return undefined;
      return held.principal;
    },
  };
}
