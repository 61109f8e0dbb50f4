/**
 * Usage per key, per operation, per UTC day: counted in the process as requests are
 * charged, written to the store in one transaction every few seconds (never a database
 * write per request), and once more when the service stops. A write that fails keeps its
 * counts for the next one, so a store outage delays usage rather than losing it (up to
 * {@link MAX_PENDING_ROWS} rows; past it the oldest day's counts are dropped, and said so).
 */
import type { KeyStore, UsageRow } from "./store.js";

/** How often counts are written (usage may lag by up to this, plus a write). */
export const USAGE_FLUSH_MS = 5000;

/** Rows (key, day, operation) held while the store cannot be written. */
export const MAX_PENDING_ROWS = 100_000;

/** Calls and units of one key, one operation, one day. */
interface Count {
  calls: number;
  units: number;
}

export interface UsageRecorder {
  /** Counts one call of `operation` (`area/name`) by key `keyId`, charged `units`. */
  record(keyId: string, operation: string, units: number): void;
  /**
   * Today's calls and units of `keyId`: the store's, and what this process has not written
   * yet (only the latter while the store cannot be read).
   */
  today(keyId: string): Promise<Count>;
  /** Writes what is counted now. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

export interface UsageOptions {
  flushMs?: number;
  /** Rows held while the store cannot be written ({@link MAX_PENDING_ROWS}). */
  maxPendingRows?: number;
  onError?: (error: Error) => void;
  /** The clock, in ms (tests). */
  now?: () => number;
}

/** `YYYY-MM-DD` of `ms`, in UTC. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Builds the recorder writing to `store`. */
export function createUsageRecorder(store: KeyStore, options: UsageOptions = {}): UsageRecorder {
  const {
    flushMs = USAGE_FLUSH_MS,
    maxPendingRows = MAX_PENDING_ROWS,
    onError = () => {},
    now = Date.now,
  } = options;
  /** day → key → operation → count, for what is not written yet. */
  let pending = new Map<string, Map<string, Map<string, Count>>>();
  let rows = 0;
  /** The day of the last count, and when it ends: the date is worked out once a day. */
  let day = utcDay(now());
  let dayEnds = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
  /** When each key was last counted (ms), written as RFC 3339 with the counts. */
  let lastUsed = new Map<string, number>();
  let writing: Promise<void> = Promise.resolve();

  function countOf(into: typeof pending, date: string, keyId: string, operation: string) {
    let byKey = into.get(date);
    if (byKey === undefined) {
      byKey = new Map();
      into.set(date, byKey);
    }
    let byOperation = byKey.get(keyId);
    if (byOperation === undefined) {
      byOperation = new Map();
      byKey.set(keyId, byOperation);
    }
    let count = byOperation.get(operation);
    if (count === undefined) {
      count = { calls: 0, units: 0 };
      byOperation.set(operation, count);
      rows += 1;
    }
    return count;
  }

  /** Drops the oldest day's counts while over the bound (the store has been down for long). */
  function bound(): void {
    while (rows > maxPendingRows && pending.size > 0) {
      const oldest = pending.keys().next().value as string;
      let dropped = 0;
      for (const byOperation of pending.get(oldest)?.values() ?? []) dropped += byOperation.size;
      pending.delete(oldest);
      rows -= dropped;
      onError(new Error(`usage of ${oldest} dropped: the store could not be written`));
    }
  }

  async function write(): Promise<void> {
    if (rows === 0) return;
    const taken = pending;
    const used = lastUsed;
    pending = new Map();
    lastUsed = new Map();
    rows = 0;
    const out: UsageRow[] = [];
    for (const [date, byKey] of taken) {
      for (const [keyId, byOperation] of byKey) {
        for (const [operation, { calls, units }] of byOperation) {
          out.push({ keyId, date, operation, calls, units });
        }
      }
    }
    const usedAt = new Map<string, string>();
    for (const [keyId, at] of used) usedAt.set(keyId, new Date(at).toISOString());
    try {
      await store.addUsage(out, usedAt);
    } catch (error) {
      // Kept for the next write, added to whatever was counted meanwhile.
      for (const row of out) {
        const count = countOf(pending, row.date, row.keyId, row.operation);
        count.calls += row.calls;
        count.units += row.units;
      }
      for (const [keyId, at] of used) if (!lastUsed.has(keyId)) lastUsed.set(keyId, at);
      bound();
      throw error;
    }
  }

  function flush(): Promise<void> {
    writing = writing.catch(() => {}).then(write);
    return writing;
  }

  const timer = setInterval(() => {
    flush().catch((error: unknown) =>
      onError(error instanceof Error ? error : new Error(String(error))),
    );
  }, flushMs);
  timer.unref();

  return {
    record(keyId, operation, units) {
      const at = now();
      if (at >= dayEnds) {
        day = utcDay(at);
        dayEnds = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
      }
      const count = countOf(pending, day, keyId, operation);
      count.calls += 1;
      count.units += units;
      lastUsed.set(keyId, at);
    },
    async today(keyId) {
      const date = utcDay(now());
      const total = { calls: 0, units: 0 };
      try {
        for (const row of await store.usage(keyId, date, date)) {
          total.calls += row.calls;
          total.units += row.units;
        }
      } catch (error) {
        onError(error instanceof Error ? error : new Error(String(error)));
      }
      for (const count of pending.get(date)?.get(keyId)?.values() ?? []) {
        total.calls += count.calls;
        total.units += count.units;
      }
      return total;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
