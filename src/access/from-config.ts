/**
 * The access layer as the configuration asks for it: the static keys (and any other key
 * sources), the quota of each plan (the server's: RATE_LIMIT) and the
 * failed-authentication quota, counted in memory, in the cluster primary or in Redis.
 */
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import type { Config } from "../config.js";
import type { Metrics } from "../observability/metrics.js";
import { type AccessControl, type AccessOptions, createAccessControl } from "./control.js";
import { type KeySource, staticKeys } from "./keys.js";
import type { Plan } from "./principal.js";
import {
  chooseStore,
  createQuotaCounter,
  createRedisClient,
  type QuotaCounter,
} from "./rate-limit.js";

/** The quota policy's name in RateLimit headers and metrics, for every key's plan. */
const PER_KEY = "per-key";

type QuotaConfig = Pick<
  Config,
  | "apiKeys"
  | "redisUrl"
  | "rateLimit"
  | "rateLimitWindowSeconds"
  | "authFailureLimit"
  | "authFailureWindowSeconds"
>;

/** Store errors come in bursts while Redis is down: log the first, then one a minute. */
export function throttledWarning(warn: (error: Error) => void, intervalMs = 60_000) {
  let last = 0;
  return (error: Error) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    warn(error);
  };
}

/**
 * Builds the access layer for `app`; a Redis client it opens closes with the app. Store
 * failures are logged (throttled) and counted, and let requests through.
 */
export function accessFromConfig(
  app: FastifyInstance,
  config: QuotaConfig,
  metrics: Metrics,
  sources: readonly KeySource[] = [],
  usage?: AccessOptions["usage"],
): AccessControl {
  const storeFailure = throttledWarning((error) =>
    app.log.warn({ err: error }, "rate-limit store unavailable; requests pass uncounted"),
  );
  const onStoreFailure = (error: Error) => {
    metrics.rateLimitStoreFailures.inc();
    storeFailure(error);
  };
  let redis: Redis | undefined;
  if (config.redisUrl) {
    redis = createRedisClient(config.redisUrl, storeFailure);
    app.addHook("onClose", async () => {
      redis?.disconnect();
    });
  }
  const store = chooseStore(redis);
  const quota = (name: string, limit: number, windowSeconds: number) =>
    createQuotaCounter({ name, limit, windowSeconds }, store, onStoreFailure);
  const serverPlan =
    config.rateLimit > 0
      ? quota(PER_KEY, config.rateLimit, config.rateLimitWindowSeconds)
      : undefined;
  // One counter per distinct plan, made when a key with that plan first comes; each plan
  // object (one per held key record) finds it again without building its name per request.
  const plans = new Map<string, QuotaCounter>();
  const ofPlan = new WeakMap<Plan, QuotaCounter>();
  const quotaOf = (plan: Plan | null): QuotaCounter | undefined => {
    if (plan === null) return serverPlan;
    let counter = ofPlan.get(plan);
    if (counter !== undefined) return counter;
    const name = `${plan.limit}/${plan.windowSeconds}`;
    counter = plans.get(name);
    if (counter === undefined) {
      counter = quota(PER_KEY, plan.limit, plan.windowSeconds);
      plans.set(name, counter);
    }
    ofPlan.set(plan, counter);
    return counter;
  };
  return createAccessControl({
    sources: [staticKeys(config.apiKeys), ...sources],
    quotaOf,
    metrics,
    ...(usage ? { usage } : {}),
    authFailures:
      config.authFailureLimit > 0
        ? quota("auth-failures", config.authFailureLimit, config.authFailureWindowSeconds)
        : undefined,
  });
}
