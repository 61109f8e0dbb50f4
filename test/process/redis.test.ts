/**
 * Two replicas sharing one real Redis: one quota across both; when Redis dies the
 * service fails open (200s, nothing ≥ 500, no added latency worth the name) and counts
 * the store failures; when Redis comes back, counting resumes by itself.
 *
 * Needs `redis-server` (Debian's package). Without it the suite is skipped with a
 * message, except under CI (env CI set), where .ci/run installs it: there it fails.
 */
import { Agent } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  commandExists,
  freePort,
  type HttpResult,
  metricTotal,
  type Proc,
  quantile,
  remainingOf,
  type Server,
  startRedis,
  startServer,
  stopAll,
  waitFor,
} from "./helpers.js";

const REDIS_MISSING = !commandExists("redis-server");
const IN_CI = Boolean(process.env.CI);
if (REDIS_MISSING && !IN_CI) {
  console.warn(
    "[redis] SKIPPED test/process/redis.test.ts: redis-server is not installed " +
      "(apt-get install redis-server); under CI (env CI set) this is a failure",
  );
}

const LIMIT = 10;
const SUM = "/v1/math/sum?numbers=1,2";
const KEYS = ["k1", "k2", "k3", "poll-a", "poll-b"];

describe.skipIf(REDIS_MISSING && !IN_CI)("two replicas sharing one Redis", () => {
  let redisPort = 0;
  let redis: Proc;
  let a: Server;
  let b: Server;
  const agents = new Map<Server, Agent>();

  /** GET `path` on `server` with `key`, over that server's keep-alive agent. */
  const get = (server: Server, key: string, path = SUM): Promise<HttpResult> => {
    let agent = agents.get(server);
    if (!agent) {
      agent = new Agent({ keepAlive: true, maxSockets: 4 });
      agents.set(server, agent);
    }
    return server.get(path, { headers: { "x-api-key": key }, agent, timeoutMs: 5000 });
  };

  /** Polls `server` with `key` until a response shows the request was counted (r < limit). */
  const waitCounting = (server: Server, key: string, timeoutMs: number) =>
    waitFor(
      async () => {
        const response = await get(server, key);
        return response.status === 200 && (remainingOf(response) ?? LIMIT) < LIMIT;
      },
      timeoutMs,
      100,
    );

  beforeAll(async () => {
    if (REDIS_MISSING) {
      throw new Error(
        "redis-server is not installed, and CI is set: .ci/run must install it " +
          "(apt-get install -y redis-server)",
      );
    }
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    const env = {
      API_KEYS: KEYS.join(","),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      RATE_LIMIT: String(LIMIT),
      RATE_LIMIT_WINDOW: "60",
      LOG_LEVEL: "warn",
    };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
    // Healthy is not yet connected to Redis; until then requests pass uncounted.
    expect(await waitCounting(a, "poll-a", 10_000), a.output()).toBe(true);
    expect(await waitCounting(b, "poll-b", 10_000), b.output()).toBe(true);
  }, 60_000);

  afterAll(async () => {
    for (const agent of agents.values()) agent.destroy();
    await stopAll();
  });

  it("counts one quota across both replicas", async () => {
    const responses: HttpResult[] = [];
    for (const server of [a, a, a, a, a, a, b, b, b, b, b, b])
      responses.push(await get(server, "k1"));

    expect(responses.map((response) => response.status)).toEqual([
      ...Array(10).fill(200),
      429,
      429,
    ]);
    // Remaining counts down across A and B: 9 … 0.
    expect(responses.slice(0, 10).map(remainingOf)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    for (const response of responses) {
      expect(response.headers["ratelimit-policy"]).toBe(`"per-key";q=${LIMIT};w=60`);
      expect(response.headers.ratelimit).toMatch(/^"per-key";r=\d+;t=\d+$/);
    }
    for (const refused of responses.slice(10)) {
      const retryAfter = Number(refused.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(remainingOf(refused)).toBe(0);
      expect(JSON.parse(refused.body).detail).toMatch(/Too many requests/);
    }
  }, 60_000);

  it("fails open while Redis is down, and counts the store failures", async () => {
    const servers = [a, b];
    const before: HttpResult[] = [];
    for (let i = 0; i < 5; i++) before.push(await get(servers[i % 2] as Server, "k2"));
    expect(before.map((response) => response.status)).toEqual(Array(5).fill(200));
    expect(before.map(remainingOf)).toEqual([9, 8, 7, 6, 5]);

    redis.signal("SIGKILL");
    expect(await redis.waitExit(5000)).toBeDefined();

    // 45 more: far past the quota of 10, so only failing open lets them through.
    const during: HttpResult[] = [];
    for (let i = 0; i < 45; i++) during.push(await get(servers[i % 2] as Server, "k2"));
    const latencies = during.map((response) => response.ms);
    console.log(
      `[redis] while Redis was down: ${during.length} requests, ` +
        `p50 ${quantile(latencies, 0.5).toFixed(2)} ms, p99 ${quantile(latencies, 0.99).toFixed(2)} ms, ` +
        `max ${Math.max(...latencies).toFixed(2)} ms (request ${latencies.indexOf(Math.max(...latencies))}); before the kill: p50 ` +
        `${quantile(
          before.map((response) => response.ms),
          0.5,
        ).toFixed(2)} ms`,
    );
    expect(during.filter((response) => response.status >= 500)).toEqual([]);
    expect(during.map((response) => response.status)).toEqual(Array(45).fill(200));
    expect(quantile(latencies, 0.99)).toBeLessThan(1000);

    const metricsA = await get(a, "k2", "/metrics");
    const metricsB = await get(b, "k2", "/metrics");
    expect(metricsA.status).toBe(200);
    const failuresA = metricTotal(metricsA.body, "rate_limit_store_failures_total");
    const failuresB = metricTotal(metricsB.body, "rate_limit_store_failures_total");
    console.log(`[redis] rate_limit_store_failures_total: A ${failuresA}, B ${failuresB}`);
    expect(failuresA).toBeGreaterThan(0);
  }, 60_000);

  it("counts again once Redis is back on the same port", async () => {
    if (redis.running) redis.signal("SIGKILL");
    await redis.waitExit(5000);
    const restartedAt = performance.now();
    redis = await startRedis(redisPort);

    // Each replica reconnects on its own (backoff up to 1 s); the empty Redis starts over.
    expect(await waitCounting(a, "poll-a", 15_000), a.output()).toBe(true);
    expect(await waitCounting(b, "poll-b", 15_000), b.output()).toBe(true);
    console.log(
      `[redis] counting resumed on both replicas ${Math.round(performance.now() - restartedAt)} ms after the restart`,
    );

    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      statuses.push((await get(i % 2 === 0 ? a : b, "k3")).status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);
  }, 60_000);
});
