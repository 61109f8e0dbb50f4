import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type KeyStore, openKeyStore } from "./store.js";
import { createUsageRecorder, MAX_PENDING_ROWS, utcDay } from "./usage.js";

const stores: KeyStore[] = [];

/** `store` with its usage writes going through `addUsage` instead. */
function withUsageWrite(store: KeyStore, addUsage: KeyStore["addUsage"]): KeyStore {
  return new Proxy(store, {
    get: (target, name) => (name === "addUsage" ? addUsage : Reflect.get(target, name, target)),
  });
}
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => {});
});

async function store(): Promise<KeyStore> {
  const opened = await openKeyStore({ dataDir: mkdtempSync(join(tmpdir(), "ucs-usage-")) });
  stores.push(opened);
  return opened;
}

describe("the usage recorder", () => {
  it("adds calls and units per key, operation and day, written in one batch", async () => {
    const keys = await store();
    let writes = 0;
    const counted = withUsageWrite(keys, (rows, lastUsed) => {
      writes += 1;
      return keys.addUsage(rows, lastUsed);
    });
    const clock = Date.parse("2030-05-01T10:00:00Z");
    const usage = createUsageRecorder(counted, { flushMs: 60_000, now: () => clock });
    for (let i = 0; i < 1000; i++) usage.record("k1", "math/sum", 1);
    usage.record("k1", "misc/fizzbuzz", 3);
    usage.record("k2", "math/sum", 1);
    await usage.flush();
    expect(writes).toBe(1);
    const rows = await keys.usage("k1", "2030-05-01", "2030-05-01");
    expect(rows.map(({ operation, calls, units }) => [operation, calls, units])).toEqual([
      ["math/sum", 1000, 1000],
      ["misc/fizzbuzz", 1, 3],
    ]);
    expect(await usage.today("k2")).toEqual({ calls: 1, units: 1 });
    await usage.close();
  });

  it("today counts what is written and what is not yet", async () => {
    const keys = await store();
    const usage = createUsageRecorder(keys, { flushMs: 60_000 });
    usage.record("k", "math/sum", 2);
    await usage.flush();
    usage.record("k", "math/sum", 3);
    expect(await usage.today("k")).toEqual({ calls: 2, units: 5 });
    await usage.close();
  });

  it("a day's counts go to that UTC day, across midnight", async () => {
    const keys = await store();
    let clock = Date.parse("2030-05-01T23:59:59Z");
    const usage = createUsageRecorder(keys, { flushMs: 60_000, now: () => clock });
    usage.record("k", "math/sum", 1);
    clock += 2000;
    usage.record("k", "math/sum", 1);
    await usage.close();
    const rows = await keys.usage("k", "2030-05-01", "2030-05-02");
    expect(rows.map((row) => [row.date, row.calls])).toEqual([
      ["2030-05-01", 1],
      ["2030-05-02", 1],
    ]);
    expect(utcDay(clock)).toBe("2030-05-02");
  });

  it("a failed write keeps its counts for the next one: nothing lost", async () => {
    const keys = await store();
    let failing = true;
    const flaky = withUsageWrite(keys, (rows, lastUsed) =>
      failing ? Promise.reject(new Error("store down")) : keys.addUsage(rows, lastUsed),
    );
    const usage = createUsageRecorder(flaky, { flushMs: 60_000 });
    usage.record("k", "math/sum", 1);
    await expect(usage.flush()).rejects.toThrow("store down");
    usage.record("k", "math/sum", 1);
    failing = false;
    await usage.flush();
    expect(await keys.usage("k", utcDay(Date.now()), utcDay(Date.now()))).toMatchObject([
      { calls: 2, units: 2 },
    ]);
    await usage.close();
  });

  it("close writes what is left", async () => {
    const keys = await store();
    const usage = createUsageRecorder(keys, { flushMs: 60_000 });
    usage.record("k", "math/sum", 4);
    await usage.close();
    expect(await keys.usage("k", utcDay(Date.now()), utcDay(Date.now()))).toHaveLength(1);
  });

  it("bounds what it holds while the store is down: the oldest day goes first, said so", async () => {
    const keys = await store();
    const errors: string[] = [];
    let clock = Date.parse("2030-05-01T12:00:00Z");
    const down = withUsageWrite(keys, () => Promise.reject(new Error("store down")));
    const usage = createUsageRecorder(down, {
      flushMs: 60_000,
      maxPendingRows: 3,
      now: () => clock,
      onError: (error) => errors.push(error.message),
    });
    usage.record("k", "math/sum", 1);
    usage.record("k", "math/range", 1);
    clock += 86_400_000;
    usage.record("k", "math/sum", 1);
    usage.record("k", "math/range", 1);
    await expect(usage.flush()).rejects.toThrow("store down");
    expect(errors).toEqual(["usage of 2030-05-01 dropped: the store could not be written"]);
    expect(await usage.today("k")).toEqual({ calls: 2, units: 2 });
    expect(MAX_PENDING_ROWS).toBeGreaterThanOrEqual(10_000);
  });
});
