/**
 * Per-key quotas, and a separate quota for failed authentication per client address.
 * Counters live in memory, in the cluster primary (WORKERS > 1), or in Redis
 * (REDIS_URL) so that every replica shares one quota. When the shared store is slow or
 * down, requests are let through (fail open): limits protect capacity, and an outage of
 * the counter store must not become an outage of the service.
 */
import cluster from "node:cluster";
import { createRequire } from "node:module";
import type { Redis } from "ioredis";
import type { RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";

/** One quota: `limit` units per `windowSeconds`. */
export interface QuotaPolicy {
  /** Policy name, as sent in the RateLimit header fields. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/** The state of a quota after a request was counted. */
export interface QuotaState {
  allowed: boolean;
  policy: QuotaPolicy;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** True when the store failed and the request was let through uncounted. */
  failedOpen: boolean;
}

/**
 * The one sentence every surface answers a request over a quota with: who is limited,
 * to what, what the request asked for (when it is counted in units: GraphQL, MCP), and
 * when to retry.
 *
 * @example
 * quotaExceeded(state, "this API key", 3);
 * // "Too many requests: this API key is limited to 100 units per 60 seconds; this request asks for 3; retry in 12 seconds"
 */
export function quotaExceeded(state: QuotaState, subject: string, asked?: number): string {
  const { limit, windowSeconds } = state.policy;
  const ask =
    asked === undefined ? "" : asked > 0 ? `; this request asks for ${asked}` : "; none is left";
  return `Too many requests: ${subject} is limited to ${limit} units per ${windowSeconds} seconds${ask}; retry in ${state.resetSeconds} seconds`;
}

export type StoreFailureListener = (error: Error) => void;

/** Counts units against one policy, by partition key. */
export interface QuotaCounter {
  readonly policy: QuotaPolicy;
  /**
   * Counts `units` when the partition has them left; a refused consume keeps none of them
   * (see {@link REFUND_MIN_MS}), so a request too big for what is left does not use it up.
   */
  consume(partition: string, units?: number): Promise<QuotaState>;
  /** The partition's state, counting nothing: allowed while at least one unit is left. */
  peek(partition: string): Promise<QuotaState>;
  /**
   * `consume`, answered at once: present when the counters are in this process (the
   * memory store), so a request's charge takes no promise. The state returned is the
   * partition's own object, overwritten by its next charge: read it before yielding.
   */
  consumeNow?(partition: string, units: number): QuotaState;
  /** `RateLimit-Policy`'s value for this counter's policy, made once. */
  readonly policyHeader: string;
  /** `RateLimit`'s value for a state of this counter. */
  field(state: QuotaState): string;
}

/**
 * A refused consume gives its units back unless the window ends within this many ms: a
 * refund that landed after the reset would start the next window below zero (extra units).
 * Units kept that close to the reset expire with the window anyway.
 */
export const REFUND_MIN_MS = 1_000;

const require = createRequire(import.meta.url);

/**
 * rate-limiter-flexible, required when a quota is made (or a cluster's primary keeps the
 * counters), not imported at the top: a process with rate limits off (the default) never
 * loads it (about 1.4 MB of heap).
 */
export const limiters = () =>
  require("rate-limiter-flexible") as typeof import("rate-limiter-flexible");

export type CounterStore =
  | { kind: "memory" }
  | { kind: "cluster" }
  | { kind: "redis"; client: Redis };

function limiterFor(
  policy: QuotaPolicy,
  store: Exclude<CounterStore, { kind: "memory" }>,
): RateLimiterAbstract {
  const { RateLimiterCluster, RateLimiterRedis } = limiters();
  const options = {
    // Plans of one name with other limits count apart.
    keyPrefix: `ucs:${policy.name}:${policy.limit}:${policy.windowSeconds}`,
    points: policy.limit,
    duration: policy.windowSeconds,
  };
  switch (store.kind) {
    case "cluster":
      return new RateLimiterCluster({ ...options, timeoutMs: 200 });
    case "redis":
      return new RateLimiterRedis({
        ...options,
        storeClient: store.client,
        rejectIfRedisNotReady: true,
      });
  }
}

/** `RateLimit-Policy`'s value for `policy`. */
function policyHeaderOf(policy: QuotaPolicy): string {
  return `${JSON.stringify(policy.name)};q=${policy.limit};w=${policy.windowSeconds}`;
}

/** `RateLimit`'s value for states of `policy`, its quoted name made once. */
function fieldOf(policy: QuotaPolicy): (state: QuotaState) => string {
  const name = `${JSON.stringify(policy.name)};r=`;
  return (state) => `${name}${state.remaining};t=${state.resetSeconds}`;
}

/** One partition's window in a local counter, and its state as last answered. */
interface LocalWindow {
  used: number;
  /** When the window ends (Date.now() ms). */
  endsAt: number;
  state: QuotaState;
}

/** Partitions a local counter holds before it first sweeps out ended windows. */
const FIRST_SWEEP = 1024;

/**
 * A counter whose windows live in this process: fixed windows that start at a partition's
 * first charge, as rate-limiter-flexible's memory store counts, answered synchronously
 * with no promise and, for a partition already counted, no allocation. Ended windows are
 * swept when the map has doubled since the last sweep, so it holds at most about twice
 * the partitions live in one window (failed authentications are counted per address).
 */
function createLocalCounter(policy: QuotaPolicy): QuotaCounter {
  const windowMs = policy.windowSeconds * 1000;
  const windows = new Map<string, LocalWindow>();
  let sweepAt = FIRST_SWEEP;
  const untouched: QuotaState = Object.freeze({
    allowed: true,
    policy,
    remaining: policy.limit,
    resetSeconds: policy.windowSeconds,
    failedOpen: false,
  });

  function sweep(now: number): void {
    for (const [partition, window] of windows) {
      if (window.endsAt <= now) windows.delete(partition);
    }
    sweepAt = Math.max(FIRST_SWEEP, windows.size * 2);
  }

  /** The partition's current window, begun now if it had none or it has ended. */
  function windowOf(partition: string, now: number): LocalWindow {
    let window = windows.get(partition);
    if (window === undefined) {
      if (windows.size >= sweepAt) sweep(now);
      window = {
        used: 0,
        endsAt: now + windowMs,
        state: { ...untouched },
      };
      windows.set(partition, window);
    } else if (window.endsAt <= now) {
      window.used = 0;
      window.endsAt = now + windowMs;
    }
    return window;
  }

  function answer(window: LocalWindow, allowed: boolean, now: number): QuotaState {
    const state = window.state;
    state.allowed = allowed;
    state.remaining = Math.max(0, policy.limit - window.used);
    state.resetSeconds = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    return state;
  }

  function consumeNow(partition: string, units = 1): QuotaState {
    const now = Date.now();
    const window = windowOf(partition, now);
    if (window.used + units <= policy.limit) {
      window.used += units;
      return answer(window, true, now);
    }
    // Refused: none of its units are kept, but within REFUND_MIN_MS of the reset, as the
    // shared stores do (their refund could land in the next window).
    if (window.endsAt - now <= REFUND_MIN_MS) window.used += units;
    return answer(window, false, now);
  }

  return {
    policy,
    policyHeader: policyHeaderOf(policy),
    field: fieldOf(policy),
    consumeNow,
    // The promise API's states are copies: a caller may hold one across a yield.
    consume: (partition, units = 1) => Promise.resolve({ ...consumeNow(partition, units) }),
    peek(partition) {
      const now = Date.now();
      const window = windows.get(partition);
      if (window === undefined || window.endsAt <= now) return Promise.resolve(untouched);
      const state = answer(window, window.used < policy.limit, now);
      return Promise.resolve({ ...state });
    },
  };
}

/**
 * A counter for `policy` in `store`. Store failures resolve as allowed (`failedOpen`) and
 * are reported to `onStoreFailure`.
 *
 * @example
 * const perKey = createQuotaCounter({ name: "per-key", limit: 100, windowSeconds: 60 }, { kind: "memory" });
 * const state = await perKey.consume(keyId); // { allowed: true, remaining: 99, … }
 * await perKey.peek(keyId); // the same state, nothing counted
 */
export function createQuotaCounter(
  policy: QuotaPolicy,
  store: CounterStore,
  onStoreFailure: StoreFailureListener = () => {},
): QuotaCounter {
  if (store.kind === "memory") return createLocalCounter(policy);
  const limiter = limiterFor(policy, store);
  const { RateLimiterRes } = limiters();
  const stateOf = (res: RateLimiterRes, allowed: boolean): QuotaState => ({
    allowed,
    policy,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    failedOpen: false,
  });
  const untouched: QuotaState = Object.freeze({
    allowed: true,
    policy,
    remaining: policy.limit,
    resetSeconds: policy.windowSeconds,
    failedOpen: false,
  });
  const failedOpen = (error: unknown): QuotaState => {
    onStoreFailure(error instanceof Error ? error : new Error(String(error)));
    return { ...untouched, failedOpen: true };
  };
  return {
    policy,
    policyHeader: policyHeaderOf(policy),
    field: fieldOf(policy),
    async consume(partition, units = 1) {
      let refused: RateLimiterRes;
      try {
        return stateOf(await limiter.consume(partition, units), true);
      } catch (outcome) {
        if (!(outcome instanceof RateLimiterRes)) return failedOpen(outcome);
        refused = outcome;
      }
      if (refused.msBeforeNext <= REFUND_MIN_MS) return stateOf(refused, false);
      try {
        return stateOf(await limiter.reward(partition, units), false);
      } catch (error) {
        // The refund was lost: the units stay counted, the safe side for the service.
        onStoreFailure(error instanceof Error ? error : new Error(String(error)));
        return stateOf(refused, false);
      }
    },
    async peek(partition) {
      try {
        const res = await limiter.get(partition);
        // No record, or one whose window has ended but is not yet swept: nothing counted.
        if (res === null || res.msBeforeNext <= 0) return untouched;
        return stateOf(res, res.remainingPoints > 0);
      } catch (error) {
        return failedOpen(error);
      }
    },
  };
}

/**
 * A Redis client tuned to never hold a request up: no offline queue (commands fail at
 * once while disconnected), a short command timeout, and reconnection in the background.
 */
export function createRedisClient(url: string, onError: StoreFailureListener): Redis {
  // Required here, not imported at the top: a process without REDIS_URL never loads ioredis.
  const { Redis } = require("ioredis") as typeof import("ioredis");
  const client = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: 100,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  client.on("error", onError);
  return client;
}

/** The store to use in this process: Redis when configured, else the cluster primary, else memory. */
export function chooseStore(redis: Redis | undefined): CounterStore {
  if (redis) return { kind: "redis", client: redis };
  if (cluster.isWorker) return { kind: "cluster" };
  return { kind: "memory" };
}

/** `RateLimit-Policy` and `RateLimit` header fields (draft-ietf-httpapi-ratelimit-headers-11). */
export function rateLimitHeaders(state: QuotaState): Record<string, string> {
  return {
    "ratelimit-policy": policyHeaderOf(state.policy),
    ratelimit: `${JSON.stringify(state.policy.name)};r=${state.remaining};t=${state.resetSeconds}`,
  };
}
