import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import {
  fullCollection,
  IDLE_COLLECT_BYTES,
  isCollecting,
  isShrinking,
  QUIET_REQUESTS,
  SHRINK_YOUNG_BYTES,
} from "./idle-collection.js";

const MB = 1024 * 1024;

describe("idle collection", () => {
  it("collects when the process is quiet and its heap grew since the low point", () => {
    const looks = { seen: 100, base: 30 * MB };
    // Busy: more than QUIET_REQUESTS answered since the last look, whatever the heap.
    expect(isCollecting(looks, 100 + QUIET_REQUESTS + 1, 90 * MB)).toBe(false);
    // Quiet, the heap not grown enough.
    expect(isCollecting(looks, looks.seen + 1, 30 * MB + IDLE_COLLECT_BYTES - 1)).toBe(false);
    // Quiet (a scrape or two) and grown: collects.
    expect(isCollecting(looks, looks.seen + QUIET_REQUESTS, 30 * MB + IDLE_COLLECT_BYTES)).toBe(
      true,
    );
  });

  it("measures growth from the heap's lowest point seen since the last collection", () => {
    const looks = { seen: 0, base: 50 * MB };
    expect(isCollecting(looks, 0, 35 * MB)).toBe(false);
    expect(looks.base).toBe(35 * MB);
    expect(isCollecting(looks, 0, 35 * MB + IDLE_COLLECT_BYTES)).toBe(true);
  });

  it("collects fully, without exposing gc on the global scope", () => {
    const collect = fullCollection();
    let garbage: number[][] | undefined = Array.from({ length: 300_000 }, (_, i) => [i]);
    const before = getHeapStatistics().used_heap_size;
    garbage = undefined;
    collect();
    expect(before - getHeapStatistics().used_heap_size).toBeGreaterThan(IDLE_COLLECT_BYTES);
    expect(garbage).toBeUndefined();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it("shrinks the young generation back when asked to (after start)", () => {
    const collect = fullCollection();
    const youngCommitted = () =>
      getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
    // Short-lived objects that survive a scavenge or two grow the young generation.
    const grow = () => {
      let keep: number[][] = [];
      for (let i = 0; i < 400_000; i++) {
        keep.push([i]);
        if (keep.length > 50_000) keep = [];
      }
      return keep.length;
    };
    grow();
    collect();
    const regular = youngCommitted();
    grow();
    collect(true);
    expect(youngCommitted()).toBeLessThan(regular);
  });

  it("shrinks the young generation once per idle spell, only when nothing was answered", () => {
    const big = SHRINK_YOUNG_BYTES + 1;
    expect(isShrinking(true, true, big)).toBe(true);
    // A scrape in the last second: someone may wait on the pauses.
    expect(isShrinking(true, false, big)).toBe(false);
    // Given back already, and not busy since.
    expect(isShrinking(false, true, big)).toBe(false);
    // Small already.
    expect(isShrinking(true, true, SHRINK_YOUNG_BYTES)).toBe(false);
  });
});
