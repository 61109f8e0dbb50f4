/**
 * Quota abuse over MCP against the service started as `npm start` starts it
 * (NODE_ENV=production, the heap caps) with RATE_LIMIT, for each counter store: memory,
 * the cluster primary (WORKERS=2) and Redis (REDIS_URL). Only what is served is charged:
 *
 * - a 101-call batch, refused by the batch bound (400), charges nothing;
 * - a request refused with 429 keeps none of its units: a refused 10-call batch leaves the
 *   2 units that were left usable;
 * - a key with no unit left gets a small 429 for `tools/list` (a 48 KB answer, once free:
 *   a key at 429 pulled 906 MB of it in 10 s), `initialize` and `ping`.
 *
 * Redis needs `redis-server` (Debian's package): without it that store is skipped with a
 * message, except under CI (env CI set), where it fails, as in test/process/redis.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  commandExists,
  freePort,
  HOST,
  remainingOf,
  type Server,
  START,
  startRedis,
  startServer,
  stopAll,
  waitFor,
} from "./helpers.js";

const LIMIT = 20;
// Production refuses keys shorter than 32 characters.
const TAIL = "-0123456789abcdefghijklmnopqrstuv";
const KEYS = {
  batch: `abuse-batch-key${TAIL}`,
  oversize: `abuse-oversize-key${TAIL}`,
  spent: `abuse-spent${TAIL}`,
};
const POLL_KEY = `abuse-poll-key${TAIL}`;
const JSON_AND_SSE = "application/json, text/event-stream";
/** A 429's `{"detail": …}` is a sentence; the tool list it once answered is ~48 KB. */
const SMALL_BODY = 400;

const REDIS_MISSING = !commandExists("redis-server");
const IN_CI = Boolean(process.env.CI);
if (REDIS_MISSING && !IN_CI) {
  console.warn(
    "[quota-abuse] SKIPPED the Redis store: redis-server is not installed " +
      "(apt-get install redis-server); under CI (env CI set) this is a failure",
  );
}

const sumCall = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "math_sum", arguments: { numbers: ["1", String(id)] } },
});
const calls = (count: number) => Array.from({ length: count }, (_, i) => sumCall(i));
const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list" };
const PING = { jsonrpc: "2.0", id: 1, method: "ping" };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "quota-abuse", version: "1.0.0" },
  },
};

interface Answer {
  status: number;
  body: string;
  /** `r` of the RateLimit field; NaN without one. */
  remaining: number;
  retryAfter: string | null;
}

/** POST /mcp on `server` with `key`, bounded in time. */
async function mcp(server: Server, key: string, body: unknown): Promise<Answer> {
  const response = await fetch(`http://${HOST}:${server.port}/mcp`, {
    method: "POST",
    headers: { "x-api-key": key, accept: JSON_AND_SSE, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    body: await response.text(),
    remaining: Number(/;r=(\d+)/.exec(response.headers.get("ratelimit") ?? "")?.[1]),
    retryAfter: response.headers.get("retry-after"),
  };
}

interface Store {
  name: string;
  skip: boolean;
  /** The environment that selects the store (starting what it needs). */
  env: () => Promise<Record<string, string>>;
}

const STORES: Store[] = [
  { name: "memory", skip: false, env: async () => ({}) },
  { name: "the cluster primary (WORKERS=2)", skip: false, env: async () => ({ WORKERS: "2" }) },
  {
    name: "Redis (REDIS_URL)",
    skip: REDIS_MISSING && !IN_CI,
    env: async () => {
      if (REDIS_MISSING) {
        throw new Error("redis-server is not installed, and CI is set: .ci/run must install it");
      }
      const port = await freePort();
      await startRedis(port);
      return { REDIS_URL: `redis://127.0.0.1:${port}` };
    },
  },
];

afterAll(stopAll);

describe.each(STORES)("quota over MCP, counters in $name", (store) => {
  let server: Server;

  beforeAll(async () => {
    if (store.skip) return;
    server = await startServer(
      {
        ...START.env,
        ...(await store.env()),
        API_KEYS: [...Object.values(KEYS), POLL_KEY].join(","),
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        RATE_LIMIT: String(LIMIT),
        RATE_LIMIT_WINDOW: "60",
      },
      // A cluster's primary and two workers take a while on a busy machine.
      { nodeFlags: START.nodeFlags, readyTimeoutMs: 40_000 },
    );
    // Until the store answers (Redis connecting, a worker's first message to the primary)
    // requests pass uncounted; wait until one is counted.
    const counting = await waitFor(
      async () => {
        const response = await server.get("/v1/math/sum?numbers=1", {
          headers: { "x-api-key": POLL_KEY },
          timeoutMs: 5000,
        });
        return response.status === 200 && (remainingOf(response) ?? LIMIT) < LIMIT;
      },
      15_000,
      100,
    );
    expect(counting, server.output()).toBe(true);
  }, 90_000);
  // One store's service at a time on the shared machine.
  afterAll(() => server?.kill());

  it.skipIf(store.skip)(
    "charges nothing for a 101-call batch refused by the batch bound",
    async () => {
      const refused = await mcp(server, KEYS.batch, calls(101));
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body).error.code).toBe(-32600);
      const served = await mcp(server, KEYS.batch, sumCall(1));
      expect(served.status).toBe(200);
      expect(served.remaining).toBe(LIMIT - 1);
    },
  );

  it.skipIf(store.skip)(
    "keeps none of a refused request's units: a refused 10-call batch leaves 2 units usable",
    async () => {
      expect((await mcp(server, KEYS.oversize, calls(LIMIT - 2))).remaining).toBe(2);
      const refused = await mcp(server, KEYS.oversize, calls(10));
      expect(refused.status).toBe(429);
      expect(refused.remaining).toBe(2);
      const after = [];
      for (let i = 0; i < 3; i++) after.push((await mcp(server, KEYS.oversize, sumCall(i))).status);
      expect(after).toEqual([200, 200, 429]);
    },
  );

  it.skipIf(store.skip)(
    "answers a key with no unit left a small 429 for tools/list, initialize and ping",
    async () => {
      expect((await mcp(server, KEYS.spent, calls(LIMIT))).remaining).toBe(0);
      for (const body of [LIST, INITIALIZE, PING]) {
        const answer = await mcp(server, KEYS.spent, body);
        expect(answer.status, answer.body.slice(0, 200)).toBe(429);
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(answer.body.length).toBeLessThan(SMALL_BODY);
      }
      // The loop of the attack, bounded: 4 connections pulling the list for at most 3 s.
      const statuses = new Map<number, number>();
      let bytes = 0;
      let requests = 0;
      const deadline = Date.now() + 3000;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (requests < 400 && Date.now() < deadline) {
            requests += 1;
            const answer = await mcp(server, KEYS.spent, LIST);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            bytes += answer.body.length;
          }
        }),
      );
      expect([...statuses.keys()]).toEqual([429]);
      expect(bytes).toBeLessThan(requests * SMALL_BODY);
    },
    30_000,
  );
});
