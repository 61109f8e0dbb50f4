import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation } from "../kit/define.js";
import { createMetrics } from "../observability/metrics.js";
import { createAccessControl } from "./control.js";
import { type KeySource, staticKeys } from "./keys.js";
import { type Plan, Principal } from "./principal.js";
import { createQuotaCounter } from "./rate-limit.js";

/** Two operations in two areas, enough to tell scopes apart. */
const operation = (area: string, name: string) =>
  defineOperation({
    area,
    name,
    summary: `${area}/${name}`,
    description: "A test operation.",
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
    examples: [{ title: "ok", input: {}, output: { ok: true } }],
    handler: () => ({ ok: true }),
  });
const SUM = operation("math", "sum");
const HMAC = operation("hash", "hmac-md5");

/** Managed-like keys with scopes and plans of their own, for the layer alone. */
function source(entries: Record<string, { scopes: string[]; plan: Plan | null }>): KeySource {
  const principals = new Map(
    Object.entries(entries).map(([key, { scopes, plan }]) => [
      key,
      new Principal(`id-${key}`, `ucs_${key}`, key, scopes, plan, null, true),
    ]),
  );
  return { find: (presented) => principals.get(presented) };
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function appWith(serverPlan: Plan | null) {
  const app = Fastify();
  apps.push(app);
  app.decorateRequest("principal", undefined);
  app.decorateRequest("apiKeyId", undefined);
  const counters = new Map<string, ReturnType<typeof createQuotaCounter>>();
  const access = createAccessControl({
    sources: [
      staticKeys(["static-key"]),
      source({
        math: { scopes: ["math"], plan: null },
        hmac: { scopes: ["hash/hmac-md5"], plan: null },
        none: { scopes: [], plan: null },
        small: { scopes: ["*"], plan: { limit: 2, windowSeconds: 60 } },
      }),
    ],
    quotaOf: (plan) => {
      const chosen = plan ?? serverPlan;
      if (!chosen) return undefined;
      const name = `${chosen.limit}/${chosen.windowSeconds}`;
      let counter = counters.get(name);
      if (!counter) {
        counter = createQuotaCounter({ name: "per-key", ...chosen }, { kind: "memory" });
        counters.set(name, counter);
      }
      return counter;
    },
    metrics: createMetrics(),
  });
  for (const op of [SUM, HMAC]) {
    app.get(`/v1/${op.area}/${op.name}`, { onRequest: access.guard(op) }, (request) => ({
      id: request.principal?.id,
    }));
  }
  return app;
}

const get = (app: FastifyInstance, path: string, key: string) =>
  app.inject({ url: path, headers: { "x-api-key": key } });

describe("guard: key, scopes, plan", () => {
  it.each([
    ["static-key", "/v1/math/sum", 200],
    ["static-key", "/v1/hash/hmac-md5", 200],
    ["math", "/v1/math/sum", 200],
    ["math", "/v1/hash/hmac-md5", 403],
    ["hmac", "/v1/hash/hmac-md5", 200],
    ["hmac", "/v1/math/sum", 403],
    ["none", "/v1/math/sum", 403],
    ["unknown", "/v1/math/sum", 401],
  ])("%s on %s → %i", async (key, path, status) => {
    const app = await appWith(null);
    const response = await get(app, path, key);
    expect(response.statusCode).toBe(status);
    if (status === 403) {
      const op = path.slice(4);
      expect(response.json()).toEqual({ detail: `This API key's scopes do not include ${op}` });
    }
  });

  it("a key's own plan replaces the server's quota (off here) for that key", async () => {
    const app = await appWith(null);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(app, "/v1/math/sum", "small")).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await get(app, "/v1/math/sum", "small");
    expect(refused.headers["ratelimit-policy"]).toBe('"per-key";q=2;w=60');
    // Other keys, with the server's plan (none), are not counted.
    for (let i = 0; i < 5; i++)
      expect((await get(app, "/v1/math/sum", "math")).statusCode).toBe(200);
  });

  it("keys without a plan share the server's plan, each counted apart", async () => {
    const app = await appWith({ limit: 1, windowSeconds: 60 });
    expect((await get(app, "/v1/math/sum", "math")).statusCode).toBe(200);
    expect((await get(app, "/v1/math/sum", "math")).statusCode).toBe(429);
    expect((await get(app, "/v1/math/sum", "static-key")).statusCode).toBe(200);
    // Its own plan, not the server's.
    expect((await get(app, "/v1/math/sum", "small")).statusCode).toBe(200);
    expect((await get(app, "/v1/math/sum", "small")).statusCode).toBe(200);
  });

  it("a request out of scope is refused before its quota is charged", async () => {
    const app = await appWith({ limit: 1, windowSeconds: 60 });
    expect((await get(app, "/v1/hash/hmac-md5", "math")).statusCode).toBe(403);
    expect((await get(app, "/v1/math/sum", "math")).statusCode).toBe(200);
  });
});

describe("guard with counters in this process", () => {
  it("charges the quota and goes on in the same tick, with no promise", async () => {
    const counter = createQuotaCounter(
      { name: "per-key", limit: 5, windowSeconds: 60 },
      { kind: "memory" },
    );
    const access = createAccessControl({
      sources: [staticKeys(["static-key"])],
      quotaOf: () => counter,
      metrics: createMetrics(),
    });
    const hook = access.guard(SUM);
    const headers: Record<string, string> = {};
    const request = { headers: { "x-api-key": "static-key" }, ip: "127.0.0.1" } as never;
    const reply = {
      header(name: string, value: string) {
        headers[name] = value;
        return this;
      },
    } as never;
    let passed = false;
    (hook as unknown as (req: unknown, rep: unknown, done: () => void) => void).call(
      undefined,
      request,
      reply,
      () => {
        passed = true;
      },
    );
    // Before any promise could settle.
    expect(passed).toBe(true);
    expect(headers).toEqual({
      "ratelimit-policy": '"per-key";q=5;w=60',
      ratelimit: '"per-key";r=4;t=60',
    });
    expect(
      (await counter.peek((request as { principal: { id: string } }).principal.id)).remaining,
    ).toBe(4);
  });
});

describe("chargeNow", () => {
  function accessWith(store: "memory" | "promise") {
    const local = createQuotaCounter(
      { name: "per-key", limit: 3, windowSeconds: 60 },
      { kind: "memory" },
    );
    // A counter without consumeNow stands for a shared store (Redis, Postgres).
    const { consumeNow: _answeredAtOnce, ...shared } = local;
    const access = createAccessControl({
      sources: [staticKeys(["static-key"])],
      quotaOf: () => (store === "memory" ? local : shared),
      metrics: createMetrics(),
    });
    const headers: Record<string, string> = {};
    const request = { headers: { "x-api-key": "static-key" }, ip: "127.0.0.1" } as never;
    const reply = {
      header(name: string, value: string) {
        headers[name] = value;
        return this;
      },
    } as never;
    (access.authenticateOnly as unknown as (q: unknown, r: unknown, d: () => void) => void)(
      request,
      reply,
      () => {},
    );
    return { access, request, reply, headers };
  }

  it("answers a charge to a counter in this process at once, as charge would", async () => {
    const { access, request, reply, headers } = accessWith("memory");
    const state = access.chargeNow(request, reply, 2);
    expect(state).not.toBeInstanceOf(Promise);
    expect(state).toMatchObject({ allowed: true, remaining: 1 });
    expect(headers.ratelimit).toBe('"per-key";r=1;t=60');
    expect(access.chargeNow(request, reply, 2)).toMatchObject({ allowed: false, remaining: 1 });
    // 0 units only asks: charge's answer, a promise.
    expect(await access.chargeNow(request, reply, 0)).toMatchObject({ allowed: true });
  });

  it("answers with charge's promise when the counter is shared", async () => {
    const { access, request, reply } = accessWith("promise");
    const state = access.chargeNow(request, reply, 1);
    expect(state).toBeInstanceOf(Promise);
    expect(await state).toMatchObject({ allowed: true, remaining: 2 });
  });
});
