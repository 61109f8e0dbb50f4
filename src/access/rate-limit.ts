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

function limiterFor(policy: QuotaPolicy, store: CounterStore): RateLimiterAbstract {
  const { RateLimiterCluster, RateLimiterMemory, RateLimiterRedis } = limiters();
  const options = {
    // Plans of one name with other limits count apart.
    keyPrefix: `ucs:${policy.name}:${policy.limit}:${policy.windowSeconds}`,
    points: policy.limit,
    duration: policy.windowSeconds,
  };
  switch (store.kind) {
    case "memory":
      return new RateLimiterMemory(options);
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
  const name = JSON.stringify(state.policy.name);
  return {
    "ratelimit-policy": `${name};q=${state.policy.limit};w=${state.policy.windowSeconds}`,
    ratelimit: `${name};r=${state.remaining};t=${state.resetSeconds}`,
  };
}
