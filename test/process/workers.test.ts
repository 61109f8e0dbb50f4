/**
 * WORKERS=2 without Redis: the primary forks two workers that share the listening socket;
 * it keeps the rate-limit counters (one quota across workers) and aggregates the workers'
 * metrics for /metrics. SIGTERM to the primary stops the workers and exits 0.
 *
 * Which worker answered is read from the log: each request line carries the worker's
 * pid and the request id the test sent.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type HttpResult,
  metricTotal,
  type Server,
  startServer,
  stopAll,
  waitFor,
} from "./helpers.js";

const KEY = "workers-key";
const OTHER_KEY = "workers-key-2";
const LIMIT = 5;
const SHUTDOWN_TIMEOUT = 5;

let server: Server;

/** The pids that logged "Server listening…": the workers. */
function listeningPids(): Set<number | undefined> {
  return new Set(
    server
      .logs()
      .filter((line) => String(line.msg).startsWith("Server listening"))
      .map((line) => line.pid),
  );
}

/** The pid of the worker that logged each request id (undefined: not logged yet). */
function pidsOf(ids: readonly string[]): Array<number | undefined> {
  const byId = new Map(server.logged("request").map((line) => [line.requestId, line.pid]));
  return ids.map((id) => byId.get(id));
}

/** Waits (bounded) until every id has its log line; returns the pids. */
async function loggedPids(ids: readonly string[]): Promise<number[]> {
  await waitFor(() => pidsOf(ids).every((pid) => pid !== undefined), 5000);
  return pidsOf(ids).map((pid) => pid ?? -1);
}

beforeAll(async () => {
  server = await startServer({
    API_KEYS: `${KEY},${OTHER_KEY}`,
    WORKERS: "2",
    RATE_LIMIT: String(LIMIT),
    RATE_LIMIT_WINDOW: "60",
    SHUTDOWN_TIMEOUT: String(SHUTDOWN_TIMEOUT),
  });
  // /health answers as soon as one worker listens; wait for the second too.
  const bothListening = await waitFor(() => listeningPids().size === 2, 20_000);
  expect(bothListening, server.output()).toBe(true);
}, 60_000);

afterAll(stopAll);

it("shares one quota across the workers", async () => {
  const ids = Array.from({ length: LIMIT + 2 }, (_, i) => `quota-${i}`);
  const responses: HttpResult[] = [];
  for (const id of ids) {
    // agent: false, a connection per request: the primary hands each to a worker in turn.
    responses.push(
      await server.get("/v1/math/sum?numbers=1,2", {
        headers: { "x-api-key": KEY, "x-request-id": id },
        agent: false,
      }),
    );
  }
  const pids = await loggedPids(ids);
  console.log(`[workers] quota: ${responses.map((r, i) => `${r.status}@${pids[i]}`).join(" ")}`);
  expect(responses.map((response) => response.status)).toEqual([
    ...Array(LIMIT).fill(200),
    429,
    429,
  ]);
  // Both workers served some of them, so the quota really was shared, not per worker.
  expect(new Set(pids.slice(0, LIMIT)).size).toBe(2);
}, 60_000);

it("spreads connections over both workers", async () => {
  const ids = Array.from({ length: 40 }, (_, i) => `spread-${i}`);
  for (const id of ids) {
    const response = await server.get("/health", { headers: { "x-request-id": id }, agent: false });
    expect(response.status).toBe(200);
  }
  const pids = await loggedPids(ids);
  const perPid = new Map<number, number>();
  for (const pid of pids) perPid.set(pid, (perPid.get(pid) ?? 0) + 1);
  console.log(`[workers] 40 requests by pid: ${JSON.stringify(Object.fromEntries(perPid))}`);
  expect(perPid.size).toBe(2);
  expect(perPid.has(-1)).toBe(false);
}, 60_000);

it("/metrics aggregates every worker's metrics", async () => {
  const healthByPid = new Map<number, number>();
  for (const line of server.logged("request")) {
    if (line.route !== "/health" || typeof line.pid !== "number") continue;
    healthByPid.set(line.pid, (healthByPid.get(line.pid) ?? 0) + 1);
  }
  const response = await server.get("/metrics", {
    headers: { "x-api-key": OTHER_KEY },
    agent: false,
  });
  expect(response.status, response.body).toBe(200);
  expect(response.body).toContain("http_requests_total");
  const total = metricTotal(response.body, "http_requests_total", 'route="/health"');
  const logged = [...healthByPid.values()].reduce((sum, n) => sum + n, 0);
  console.log(
    `[workers] /health in /metrics: ${total}; logged per worker: ${JSON.stringify(Object.fromEntries(healthByPid))}`,
  );
  // More than any one worker answered: the counts of both were added up.
  expect(total).toBe(logged);
  expect(total).toBeGreaterThan(Math.max(...healthByPid.values()));
}, 60_000);

it("SIGTERM to the primary stops the workers and exits 0", async () => {
  const workerPids = listeningPids();
  const start = performance.now();
  server.signal("SIGTERM");
  const bound = (SHUTDOWN_TIMEOUT + 2) * 1000;
  const exit = await server.waitExit(bound + 1000);
  const ms = Math.round(performance.now() - start);
  console.log(`[workers] primary exit ${JSON.stringify(exit)} ${ms} ms after SIGTERM`);
  expect(exit, server.output()).toEqual({ code: 0, signal: null });
  expect(ms).toBeLessThan(bound);
  const stopped = new Set(server.logged("stopped").map((line) => line.pid));
  expect(stopped).toEqual(workerPids);
  expect(server.logged("all workers stopped")).toHaveLength(1);
}, 60_000);
