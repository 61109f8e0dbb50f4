import { describe, expect, it } from "vitest";
import {
  IDLE_COLLECT_BYTES,
  idleCollectionStarted,
  idleForShrinking,
  isCollecting,
  isShrinking,
  keepShapes,
  keptReply,
  MAX_KEPT_REQUEST_BYTES,
  mayShrink,
  QUIET_REQUESTS,
  SHRINK_AFTER_TRAFFIC_MS,
  SHRINK_YOUNG_BYTES,
} from "./idle-collection.js";
import { createMetrics } from "./metrics.js";

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

describe("shrinking after traffic", () => {
  it("shrinks at the first idle look after start, after traffic only when quiet long", () => {
    // Only starting has run: its young generation goes back at once.
    expect(mayShrink(false, 1000)).toBe(true);
    // A pause between bursts keeps the young generation and the optimised code.
    expect(mayShrink(true, 1000)).toBe(false);
    expect(mayShrink(true, SHRINK_AFTER_TRAFFIC_MS - 1)).toBe(false);
    expect(mayShrink(true, SHRINK_AFTER_TRAFFIC_MS)).toBe(true);
  });
});

describe("exemplars kept through an idle collection", () => {
  it("keeps a small request's reply, per context, and nothing large or unbounded", () => {
    const context = {};
    const first = {};
    keepShapes(context, first, 20, {});
    expect(keptReply(context)).toBe(first);
    // Past the bound, chunked (no Content-Length) or an unreadable length: the last one stays.
    keepShapes(context, {}, MAX_KEPT_REQUEST_BYTES + 1, {});
    keepShapes(context, {}, 20, { "content-length": String(MAX_KEPT_REQUEST_BYTES) });
    keepShapes(context, {}, 20, { "transfer-encoding": "chunked" });
    keepShapes(context, {}, 20, { "content-length": "x" });
    expect(keptReply(context)).toBe(first);
    const second = {};
    keepShapes(context, second, 20, { "content-length": "100" });
    expect(keptReply(context)).toBe(second);
    expect(keptReply({})).toBeUndefined();
  });
});

describe("idle collection's start", () => {
  it("waits for the service to listen: building an app (metrics and all) starts no looks", () => {
    // A start at a few hundred modules outlasts a look: its full collections delayed it.
    createMetrics();
    expect(idleCollectionStarted()).toBe(false);
  });
});

describe("the first look after the start", () => {
  it("shrinks past the first health probes; later looks only when nothing was answered", () => {
    expect(idleForShrinking(true, 1, 0)).toBe(true);
    expect(idleForShrinking(true, QUIET_REQUESTS + 1, 0)).toBe(false);
    expect(idleForShrinking(false, 1, 0)).toBe(false);
    expect(idleForShrinking(false, 3, 3)).toBe(true);
  });
});
