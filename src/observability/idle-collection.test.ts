import { describe, expect, it } from "vitest";
import {
  IDLE_CHECK_MS,
  IDLE_COLLECT_BYTES,
  idleCollectionStarted,
  keepShapes,
  keptReply,
  type LookVerdict,
  look,
  MAX_KEPT_REQUEST_BYTES,
  QUIET_REQUESTS,
  SHRINK_AFTER_TRAFFIC_MS,
  SHRINK_YOUNG_BYTES,
  startingLooks,
} from "./idle-collection.js";
import { createMetrics } from "./metrics.js";

const MB = 1024 * 1024;

/** One look: requests answered since the last, heap used and young generation (MB), verdict. */
type Step = [answered: number, usedMb: number, youngMb: number, verdict: LookVerdict];

const BIG_YOUNG = SHRINK_YOUNG_BYTES / MB + 12;
const GROWTH = IDLE_COLLECT_BYTES / MB;
/** Looks in a quiet minute after traffic: every look but the last finds the pause too short. */
const QUIET_MINUTE = Math.ceil(SHRINK_AFTER_TRAFFIC_MS / IDLE_CHECK_MS);

/** Each case: looks a second apart from a fresh start (heap 30 MB), and what each does. */
const CASES: [string, Step[]][] = [
  [
    "the first look after listen shrinks past its first health probes",
    [[1, 30, BIG_YOUNG, "shrink"]],
  ],
  ["but not past more than a few requests", [[QUIET_REQUESTS + 1, 30, BIG_YOUNG, "none"]]],
  [
    "a later look shrinks only when nothing was answered since the last (start's garbage is collected)",
    [
      [QUIET_REQUESTS + 1, 30, BIG_YOUNG, "none"],
      [1, 30, BIG_YOUNG, "collect"],
    ],
  ],
  ["a young generation small already is left", [[0, 30, SHRINK_YOUNG_BYTES / MB, "collect"]]],
  [
    "once given back, it is not shrunk again until a busy look",
    [
      [0, 30, BIG_YOUNG, "shrink"],
      [0, 30, BIG_YOUNG, "none"],
    ],
  ],
  [
    "after traffic, a quiet look collects a grown heap but keeps the young generation",
    [
      [0, 30, BIG_YOUNG, "shrink"],
      [100, 60, BIG_YOUNG, "none"],
      [0, 60, BIG_YOUNG, "collect"],
    ],
  ],
  [
    "quiet for the whole pause after traffic, it shrinks once",
    [
      [0, 30, BIG_YOUNG, "shrink"],
      [100, 60, BIG_YOUNG, "none"],
      ...Array.from({ length: QUIET_MINUTE - 1 }, (): Step => [0, 31, BIG_YOUNG, "none"]),
      [0, 31, BIG_YOUNG, "shrink"],
      [0, 31, BIG_YOUNG, "none"],
    ],
  ],
  [
    "a scrape or two is quiet: it collects a heap grown since its low point",
    [
      [0, 30, BIG_YOUNG, "shrink"],
      [QUIET_REQUESTS, 30 + GROWTH - 1, 1, "none"],
      [QUIET_REQUESTS, 30 + GROWTH, 1, "collect"],
    ],
  ],
  [
    "growth counts from the heap's lowest point since the last collection",
    [
      [0, 30, BIG_YOUNG, "shrink"],
      [100, 20, BIG_YOUNG, "none"],
      [100, 20 + GROWTH + 5, BIG_YOUNG, "none"],
      [0, 20 + GROWTH, 1, "collect"],
    ],
  ],
];

describe("idle collection: what each look does", () => {
  it.each(CASES)("%s", (_name, steps) => {
    const looks = startingLooks(0, 0);
    let count = 0;
    let now = 0;
    const verdicts = steps.map(([answered, usedMb, youngMb]) => {
      count += answered;
      now += IDLE_CHECK_MS;
      const verdict = look(looks, count, now, usedMb * MB, youngMb * MB);
      // The service sets the base to the heap after a collection.
      if (verdict !== "none") looks.base = usedMb * MB;
      return verdict;
    });
    expect(verdicts).toEqual(steps.map((step) => step[3]));
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
