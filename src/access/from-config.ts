/**
 * The access layer as the configuration asks for it: the keys, the per-key quota and the
 * failed-authentication quota, counted in memory, in the cluster primary or in Redis.
 */
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import type { Config } from "../config.js";
import type { Metrics } from "../observability/metrics.js";
import { type AccessControl, createAccessControl } from "./control.js";
import { chooseStore, createQuotaCounter, createRedisClient } from "./rate-limit.js";

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
): AccessControl {
  const storeFailure = throttledWarning((error) =>
    app.log.warn({ err: error }, "rate-limit store unavailable; requests pass uncounted"),
  );
  const onStoreFailure = (error: Error) => {
    metrics.rateLimitStoreFailures.inc();
    storeFailure(error);
  };
  let redis: Redis | undefined;
  if (config.redisUrl && (config.rateLimit > 0 || config.authFailureLimit > 0)) {
    redis = createRedisClient(config.redisUrl, storeFailure);
    app.addHook("onClose", async () => {
      redis?.disconnect();
    });
  }
  const store = chooseStore(redis);
  const quota = (name: string, limit: number, windowSeconds: number) =>
    limit > 0
      ? createQuotaCounter({ name, limit, windowSeconds }, store, onStoreFailure)
      : undefined;
  return createAccessControl({
    keys: config.apiKeys,
    metrics,
    perKey: quota("per-key", config.rateLimit, config.rateLimitWindowSeconds),
    authFailures: quota("auth-failures", config.authFailureLimit, config.authFailureWindowSeconds),
  });
}
