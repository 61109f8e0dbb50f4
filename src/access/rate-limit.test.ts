import { afterEach, describe, expect, it, vi } from "vitest";
import { throttledWarning } from "./from-config.js";
import {
  createQuotaCounter,
  createRedisClient,
  quotaExceeded,
  REFUND_MIN_MS,
  rateLimitHeaders,
} from "./rate-limit.js";

const policy = { name: "per-key", limit: 3, windowSeconds: 60 };

describe("a quota counter in memory", () => {
  it("allows `limit` units per partition, then refuses", async () => {
    const counter = createQuotaCounter(policy, { kind: "memory" });
    const states = [];
    for (let i = 0; i < 4; i++) states.push(await counter.consume("a"));
    expect(states.map((s) => [s.allowed, s.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect((await counter.consume("b")).allowed).toBe(true);
  });

  it("charges several units at once", async () => {
    const counter = createQuotaCounter(policy, { kind: "memory" });
    expect((await counter.consume("a", 3)).remaining).toBe(0);
    expect((await counter.consume("a", 1)).allowed).toBe(false);
  });

  it("keeps none of a refused request's units: what is left stays usable", async () => {
    const counter = createQuotaCounter(policy, { kind: "memory" });
    await counter.consume("a", 2);
    const refused = await counter.consume("a", 10);
    expect(refused).toMatchObject({ allowed: false, remaining: 1 });
    expect(refused.resetSeconds).toBeGreaterThan(1);
    expect(await counter.consume("a", 1)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await counter.consume("a", 1)).allowed).toBe(false);
  });

  it("refunds nothing within REFUND_MIN_MS of the reset, where it would credit the next window", async () => {
    expect(REFUND_MIN_MS).toBeGreaterThanOrEqual(1000);
    // A one-second window always ends within REFUND_MIN_MS.
    const counter = createQuotaCounter({ ...policy, windowSeconds: 1 }, { kind: "memory" });
    await counter.consume("a", 2);
    expect((await counter.consume("a", 10)).allowed).toBe(false);
    expect((await counter.consume("a", 1)).allowed).toBe(false);
  });

  it("peeks without counting: allowed while a unit is left", async () => {
    const counter = createQuotaCounter(policy, { kind: "memory" });
    expect(await counter.peek("a")).toMatchObject({ allowed: true, remaining: 3 });
    for (let i = 0; i < 5; i++) await counter.peek("a");
    expect(await counter.consume("a", 2)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await counter.peek("a")).toMatchObject({ allowed: true, remaining: 1 });
    await counter.consume("a", 1);
    const spent = await counter.peek("a");
    expect(spent).toMatchObject({ allowed: false, remaining: 0 });
    expect(spent.resetSeconds).toBeGreaterThan(1);
  });
});

describe("a local counter charged at once (consumeNow)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("answers without a promise, in the partition's one state object", () => {
    const counter = createQuotaCounter(policy, { kind: "memory" });
    const consumeNow = counter.consumeNow;
    if (!consumeNow) throw new Error("a memory counter charges at once");
    const first = consumeNow.call(counter, "a", 1);
    expect(first).not.toBeInstanceOf(Promise);
    expect(first).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
    // The same object, overwritten: a charge of a counted partition allocates no state.
    expect(consumeNow.call(counter, "a", 2)).toBe(first);
    expect(first).toMatchObject({ allowed: true, remaining: 0 });
    expect(consumeNow.call(counter, "a", 1)).toMatchObject({ allowed: false, remaining: 0 });
    expect(counter.field(first)).toBe('"per-key";r=0;t=60');
    expect(counter.policyHeader).toBe('"per-key";q=3;w=60');
  });

  it("hands the promise API copies, which a later charge does not change", async () => {
    const counter = createQuotaCounter(policy, { kind: "memory" });
    const held = await counter.consume("a", 3);
    await counter.consume("a", 1);
    expect(held).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("starts a new window once the old one has ended, and sweeps ended ones", () => {
    vi.useFakeTimers({ now: 0, toFake: ["Date"] });
    const counter = createQuotaCounter({ ...policy, windowSeconds: 2 }, { kind: "memory" });
    const consume = (partition: string) => counter.consumeNow?.(partition, 1);
    for (let i = 0; i < 3; i++) consume("a");
    expect(consume("a")).toMatchObject({ allowed: false, resetSeconds: 2 });
    vi.setSystemTime(1_500);
    expect(consume("a")).toMatchObject({ allowed: false, resetSeconds: 1 });
    vi.setSystemTime(2_000);
    expect(consume("a")).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 2 });
    // Many partitions, their windows ended: new ones still count from zero.
    for (let i = 0; i < 3000; i++) consume(`ip-${i}`);
    vi.setSystemTime(10_000);
    for (let i = 0; i < 3000; i++) consume(`other-${i}`);
    expect(consume("ip-1")).toMatchObject({ allowed: true, remaining: 2 });
  });
});

describe("a quota counter whose store is down", () => {
  it("lets the request through, uncounted, and reports the failure", async () => {
    const errors: Error[] = [];
    // Nothing listens on port 1; the client fails at once (no offline queue).
    const client = createRedisClient("redis://127.0.0.1:1", () => {});
    try {
      const counter = createQuotaCounter(policy, { kind: "redis", client }, (e) => errors.push(e));
      const state = await counter.consume("a");
      expect(state).toMatchObject({ allowed: true, failedOpen: true, remaining: 3 });
      expect(errors).toHaveLength(1);
      expect(await counter.peek("a")).toMatchObject({ allowed: true, failedOpen: true });
      expect(errors).toHaveLength(2);
    } finally {
      client.disconnect();
    }
  });
});

describe("rateLimitHeaders", () => {
  it("writes the policy and the state as the draft's structured fields", () => {
    const state = { allowed: true, policy, remaining: 2, resetSeconds: 59, failedOpen: false };
    expect(rateLimitHeaders(state)).toEqual({
      "ratelimit-policy": '"per-key";q=3;w=60',
      ratelimit: '"per-key";r=2;t=59',
    });
  });
});

describe("throttledWarning", () => {
  it("passes the first error of an interval on, and drops the rest", () => {
    const seen: string[] = [];
    const warn = throttledWarning((error) => seen.push(error.message), 60_000);
    for (const message of ["a", "b", "c"]) warn(new Error(message));
    expect(seen).toEqual(["a"]);
  });
});

describe("quotaExceeded: the one sentence of every surface's 429", () => {
  const state = {
    allowed: false,
    policy: { name: "per-key", limit: 100, windowSeconds: 60 },
    remaining: 0,
    resetSeconds: 12,
    failedOpen: false,
  };
  it.each([
    [
      undefined,
      "Too many requests: this API key is limited to 100 units per 60 seconds; retry in 12 seconds",
    ],
    [
      1,
      "Too many requests: this API key is limited to 100 units per 60 seconds; this request asks for 1; retry in 12 seconds",
    ],
    [
      3,
      "Too many requests: this API key is limited to 100 units per 60 seconds; this request asks for 3; retry in 12 seconds",
    ],
    [
      0,
      "Too many requests: this API key is limited to 100 units per 60 seconds; none is left; retry in 12 seconds",
    ],
  ])("asking for %s unit(s)", (asked, sentence) => {
    expect(quotaExceeded(state, "this API key", asked)).toBe(sentence);
  });
});
