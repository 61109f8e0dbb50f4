/**
 * The service's environment as the shipped deployments set it (docker-compose.yml,
 * deploy/kubernetes/): a per-key quota on, one log line per request at `info`, the admin
 * API on. The quota is large enough never to refuse a bench run, so every request takes
 * the charging path and answers 200. The counters are local (no REDIS_URL): the bench
 * measures the service, not a Redis round trip. The bench, the profiler and the memory
 * probe all start the service with it.
 */
import { API_KEY, BENCH_QUOTA, type ServerName } from "./workload.js";

export const SHIPPED_LOG_LEVEL = "info";

/** How long the service sits quiet before its idle RSS is read: two idle-collection looks. */
export const IDLE_SETTLE_MS = 2_500;

/** The service's variables for a run whose key store lives in `dataDir` (a temp dir). */
export function shippedEnv(dataDir: string, adminToken?: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    API_KEYS: API_KEY,
    LOG_LEVEL: SHIPPED_LOG_LEVEL,
    RATE_LIMIT: String(BENCH_QUOTA.limit),
    RATE_LIMIT_WINDOW: String(BENCH_QUOTA.windowSeconds),
    // Its own key store, never the checkout's ./data.
    DATA_DIR: dataDir,
    ...(adminToken ? { ADMIN_TOKEN: adminToken } : {}),
  };
}

/**
 * The variables of a framework yardstick (bench/bare-fastify.mjs, FastAPI): the bench's
 * key; for the fastify + rate-limit rows the service's quota, and for the one that logs
 * the service's log level.
 */
export function frameworkEnv(server: ServerName): Record<string, string> {
  const limited = server === "bare-fastify-rate-limit" || server === "bare-fastify-rate-limit-log";
  return {
    API_KEYS: API_KEY,
    ...(limited
      ? {
          RATE_LIMIT: String(BENCH_QUOTA.limit),
          RATE_LIMIT_WINDOW: String(BENCH_QUOTA.windowSeconds),
        }
      : {}),
    ...(server === "bare-fastify-rate-limit-log" ? { LOG_LEVEL: SHIPPED_LOG_LEVEL } : {}),
  };
}
