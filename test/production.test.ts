/**
 * Production behaviour inside one process (app.inject): quotas and their headers,
 * failed-auth limiting, fail-open, request ids, redaction, metrics, readiness,
 * security headers and CORS. Multi-process behaviour is in test/process/.
 */
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { keyIdOf } from "../src/http/auth.js";
import { AUTH, allOperations, TEST_KEY } from "./helpers.js";

const OTHER_KEY = "second-key-abcdef";
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function appWith(env: Record<string, string>, logLines?: string[]) {
  const app = await buildApp({
    config: loadConfig({ API_KEYS: `${TEST_KEY},${OTHER_KEY}`, ...env }),
    operations: await allOperations(),
    logger: logLines
      ? { level: "info", stream: { write: (line: string) => logLines.push(line) } }
      : false,
  });
  apps.push(app);
  return app;
}

const SUM = "/v1/math/sum?numbers=1,2";
const graphqlBatch = (fields: number) => ({
  query: `{ ${Array.from({ length: fields }, (_, i) => `f${i}: math { sum(numbers: ["1"]) { count } }`).join(" ")} }`,
});

describe("per-key quota", () => {
  it("answers 429 after exactly RATE_LIMIT requests, with RateLimit fields on every response", async () => {
    const app = await appWith({ RATE_LIMIT: "3", RATE_LIMIT_WINDOW: "60" });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await app.inject({ url: SUM, headers: AUTH }));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    for (const r of answers) {
      expect(r.headers["ratelimit-policy"]).toBe('"per-key";q=3;w=60');
      expect(r.headers.ratelimit).toMatch(/^"per-key";r=\d+;t=\d+$/);
    }
    expect(answers.map((r) => /r=(\d+)/.exec(String(r.headers.ratelimit))?.[1])).toEqual([
      "2",
      "1",
      "0",
      "0",
    ]);
    const refused = answers[3];
    expect(Number(refused?.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(refused?.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect(refused?.json().detail).toMatch(/Too many requests/);
  });

  it("counts each key on its own", async () => {
    const app = await appWith({ RATE_LIMIT: "1" });
    expect((await app.inject({ url: SUM, headers: AUTH })).statusCode).toBe(200);
    expect((await app.inject({ url: SUM, headers: AUTH })).statusCode).toBe(429);
    expect((await app.inject({ url: SUM, headers: { "x-api-key": OTHER_KEY } })).statusCode).toBe(
      200,
    );
  });

  it("charges a GraphQL request one unit per operation field, so batching cannot bypass it", async () => {
    const app = await appWith({ RATE_LIMIT: "6" });
    const post = (fields: number) =>
      app.inject({ method: "POST", url: "/graphql", headers: AUTH, payload: graphqlBatch(fields) });
    const first = await post(5);
    expect(first.statusCode).toBe(200);
    expect(first.headers.ratelimit).toMatch(/r=1;/);
    const second = await post(5);
    expect(second.statusCode).toBe(429);
    expect(second.headers["retry-after"]).toBeDefined();
    expect(second.json().errors[0].extensions.code).toBe("RATE_LIMITED");
    expect(second.json().data).toBeUndefined();
  });

  it("keeps none of a refused request's units: a refused 5-field document leaves 1 unit usable", async () => {
    const app = await appWith({ RATE_LIMIT: "6" });
    const post = (fields: number) =>
      app.inject({ method: "POST", url: "/graphql", headers: AUTH, payload: graphqlBatch(fields) });
    expect((await post(5)).headers.ratelimit).toMatch(/r=1;/);
    const refused = await post(5);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers.ratelimit).toMatch(/r=1;/);
    const last = await post(1);
    expect(last.statusCode).toBe(200);
    expect(last.headers.ratelimit).toMatch(/r=0;/);
    expect((await app.inject({ url: SUM, headers: AUTH })).statusCode).toBe(429);
  });

  it("is off by default: no RateLimit fields", async () => {
    const app = await appWith({});
    const response = await app.inject({ url: SUM, headers: AUTH });
    expect(response.headers.ratelimit).toBeUndefined();
  });
});

describe("failed authentication", () => {
  it("is limited per client address, and a blocked address is refused whatever key it sends", async () => {
    const app = await appWith({ AUTH_FAILURE_LIMIT: "2", AUTH_FAILURE_WINDOW: "60" });
    const wrong = { "x-api-key": "wrong" };
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await app.inject({ url: SUM, headers: wrong })).statusCode);
    expect(statuses).toEqual([401, 401, 429]);
    const blocked = await app.inject({ url: SUM, headers: AUTH });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["retry-after"]).toBeDefined();
    const elsewhere = await app.inject({ url: SUM, headers: AUTH, remoteAddress: "10.9.8.7" });
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe("counter store down", () => {
  it("fails open: requests pass, the failure is counted in /metrics", async () => {
    // Port 1 on loopback: nothing listens, every command fails at once.
    const app = await appWith({ RATE_LIMIT: "1", REDIS_URL: "redis://127.0.0.1:1" });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await app.inject({ url: SUM, headers: AUTH })).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    const metrics = await app.inject({ url: "/metrics", headers: AUTH });
    const failures = /^rate_limit_store_failures_total (\d+)/m.exec(metrics.body)?.[1];
    expect(Number(failures)).toBeGreaterThanOrEqual(3);
  });
});

describe("request ids", () => {
  it.each([
    ["a well-formed id is echoed", "req-42.abc", "req-42.abc"],
    ["a malformed id is replaced", "bad id with spaces", /^[0-9a-f-]{36}$/],
    ["an over-long id is replaced", "x".repeat(200), /^[0-9a-f-]{36}$/],
  ])("%s", async (_why, offered, expected) => {
    const app = await appWith({});
    const response = await app.inject({ url: SUM, headers: { ...AUTH, "x-request-id": offered } });
    if (typeof expected === "string") expect(response.headers["x-request-id"]).toBe(expected);
    else expect(response.headers["x-request-id"]).toMatch(expected);
  });

  it("every response carries one, even errors", async () => {
    const app = await appWith({});
    for (const url of ["/nope", SUM, "/health"]) {
      expect((await app.inject({ url })).headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe("logs", () => {
  it("write one line per request with the key's id, never the key or the query string", async () => {
    const lines: string[] = [];
    const app = await appWith({}, lines);
    await app.inject({
      url: "/v1/hash/hmac-md5?text=hello&key=top-secret-hmac-key",
      headers: { ...AUTH, "x-request-id": "trace-1" },
    });
    await app.inject({ url: SUM, headers: { "x-api-key": "guessed-key-123" } });
    const requests = lines
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === "request");
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      requestId: "trace-1",
      method: "GET",
      route: "/v1/hash/hmac-md5",
      path: "/v1/hash/hmac-md5",
      status: 200,
      keyId: keyIdOf(TEST_KEY),
    });
    expect(requests[1]).toMatchObject({ status: 401 });
    const all = lines.join("\n");
    for (const secret of [TEST_KEY, "guessed-key-123", "top-secret-hmac-key"]) {
      expect(all).not.toContain(secret);
    }
  });
});

describe("/metrics", () => {
  it("needs a valid API key by default, and counts requests and calculations by gateway", async () => {
    const app = await appWith({});
    expect((await app.inject({ url: "/metrics" })).statusCode).toBe(401);
    await app.inject({ url: SUM, headers: AUTH });
    await app.inject({ url: "/v1/math/sum?numbers=x", headers: AUTH });
    await app.inject({ method: "POST", url: "/graphql", headers: AUTH, payload: graphqlBatch(2) });
    const response = await app.inject({ url: "/metrics", headers: AUTH });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain/);
    const body = response.body;
    expect(body).toContain(
      'calculations_total{operation="math/sum",gateway="rest",outcome="ok"} 1',
    );
    expect(body).toContain(
      'calculations_total{operation="math/sum",gateway="rest",outcome="invalid"} 1',
    );
    expect(body).toContain(
      'calculations_total{operation="math/sum",gateway="graphql",outcome="ok"} 2',
    );
    expect(body).toMatch(
      /http_requests_total\{method="GET",route="\/v1\/math\/sum",status="200"\} 1/,
    );
    expect(body).toMatch(/http_request_duration_seconds_bucket\{[^}]*route="\/v1\/math\/sum"/);
    expect(body).toContain("process_resident_memory_bytes");
    expect(body).toContain("log_lines_dropped_total 0");
    // Counts are kept between scrapes, and each calculation is counted once.
    await app.inject({ url: SUM, headers: AUTH });
    const again = (await app.inject({ url: "/metrics", headers: AUTH })).body;
    expect(again).toContain(
      'calculations_total{operation="math/sum",gateway="rest",outcome="ok"} 2',
    );
    expect(again).toContain(
      'calculations_total{operation="math/sum",gateway="graphql",outcome="ok"} 2',
    );
  });

  it("takes a bearer token instead when METRICS_TOKEN is set", async () => {
    const app = await appWith({ METRICS_TOKEN: "scrape-token" });
    expect((await app.inject({ url: "/metrics", headers: AUTH })).statusCode).toBe(401);
    const response = await app.inject({
      url: "/metrics",
      headers: { authorization: "Bearer scrape-token" },
    });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ["bearer scrape-token", 200],
    ["BEARER   scrape-token", 200],
    ["Bearer scrape-token ", 200],
    ["Bearerscrape-token", 401],
    ["Basic scrape-token", 401],
    ["Bearer scrape-token extra", 401],
  ])("reads the scheme in any case: %j → %i", async (authorization, status) => {
    const app = await appWith({ METRICS_TOKEN: "scrape-token" });
    const response = await app.inject({ url: "/metrics", headers: { authorization } });
    expect(response.statusCode).toBe(status);
    if (status === 401) expect(response.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
  });

  it("wrong tokens count as failed authentications: past the limit, 429 even for the right one", async () => {
    const app = await appWith({ METRICS_TOKEN: "scrape-token", AUTH_FAILURE_LIMIT: "3" });
    const wrong = { authorization: "Bearer guess" };
    for (let i = 0; i < 3; i++) {
      expect((await app.inject({ url: "/metrics", headers: wrong })).statusCode).toBe(401);
    }
    const blocked = await app.inject({ url: "/metrics", headers: wrong });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().detail).toMatch(/failed authentication from this address/);
    const right = { authorization: "Bearer scrape-token" };
    expect((await app.inject({ url: "/metrics", headers: right })).statusCode).toBe(429);
    expect((await app.inject({ url: SUM, headers: AUTH })).statusCode).toBe(429);
  });
});

describe("lifecycle", () => {
  it("/ready is 200, then 503 with Connection: close while draining; /health stays 200", async () => {
    const app = await appWith({});
    expect((await app.inject({ url: "/ready" })).json()).toEqual({ status: "ready" });
    app.lifecycle.draining = true;
    const ready = await app.inject({ url: "/ready" });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers.connection).toBe("close");
    expect((await app.inject({ url: "/health" })).statusCode).toBe(200);
  });
});

describe("security headers", () => {
  it("JSON answers are nosniff, no-store, frame-denied, referrer-free and carry their request id", async () => {
    const app = await appWith({});
    for (const [url, headers] of [
      [SUM, AUTH],
      [SUM, {}],
      ["/nope", {}],
    ] as const) {
      const response = await app.inject({ url, headers });
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.headers["content-security-policy"]).toMatch(/default-src 'none'/);
      expect(response.headers["referrer-policy"]).toBe("no-referrer");
      expect(response.headers["x-frame-options"]).toBe("DENY");
      expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("the docs page keeps its own policy and its assets stay cacheable", async () => {
    const app = await appWith({});
    const page = await app.inject({ url: "/docs" });
    expect(page.headers["content-security-policy"]).toMatch(/script-src 'self'/);
    const asset = await app.inject({ url: "/docs/assets/swagger-ui.css" });
    expect(asset.headers["cache-control"]).toMatch(/max-age/);
  });
});

describe("CORS", () => {
  it("is off unless CORS_ORIGINS names the origin; allowed origins may send X-API-Key", async () => {
    const closed = await appWith({});
    const none = await closed.inject({
      url: SUM,
      headers: { ...AUTH, origin: "https://app.example" },
    });
    expect(none.headers["access-control-allow-origin"]).toBeUndefined();

    const app = await appWith({ CORS_ORIGINS: "https://app.example" });
    const preflight = await app.inject({
      method: "OPTIONS",
      url: SUM,
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "x-api-key",
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("https://app.example");
    expect(String(preflight.headers["access-control-allow-headers"]).toLowerCase()).toContain(
      "x-api-key",
    );

    const actual = await app.inject({
      url: SUM,
      headers: { ...AUTH, origin: "https://app.example" },
    });
    expect(actual.headers["access-control-allow-origin"]).toBe("https://app.example");
    expect(String(actual.headers["access-control-expose-headers"])).toContain("RateLimit");

    const other = await app.inject({
      url: SUM,
      headers: { ...AUTH, origin: "https://evil.example" },
    });
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
