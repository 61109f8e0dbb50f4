/** The bench's rows (bench/lib/workload.ts): the shipped quota on every service row, checked. */
import { describe, expect, it } from "vitest";
import { shippedEnv } from "../bench/lib/shipped.js";
import {
  API_KEY,
  BENCH_QUOTA,
  buildWorkloads,
  checkWorkload,
  createManagedKey,
  holds,
  withKey,
} from "../bench/lib/workload.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { loadOperations } from "../src/registry/loader.js";

describe("the quota rows", () => {
  it("every service row runs in the shipped process, the managed one with a key of its own", async () => {
    const all = buildWorkloads(await loadOperations());
    const rest = all.find((w) => w.name === "rest-sum");
    const managed = all.find((w) => w.name === "rest-sum-managed");
    expect(rest?.server).toBe("service");
    expect(managed?.server).toBe("service");
    expect(rest?.managedKey).toBeFalsy();
    expect(managed?.managedKey).toBe(true);
    expect(rest?.requests[0]?.path).toBe(managed?.requests[0]?.path);
    // The whole catalogue loads libraries the other rows never use: not in their process.
    expect(all.find((w) => w.name === "rest-mix")?.server).not.toBe(rest?.server);
    // Both go through the quota: their answers must say so.
    expect(rest?.requests[0]?.expectHeader?.name).toBe("ratelimit-policy");
    expect(
      all.find((w) => w.name === "bare-fastify-rate-limit")?.requests[0]?.expectHeader,
    ).toBeDefined();
    if (!managed) return;
    const keyed = withKey(managed, "ucs_secret");
    expect(keyed.requests[0]?.headers["x-api-key"]).toBe("ucs_secret");
    expect(managed.requests[0]?.headers["x-api-key"]).toBe(API_KEY);
  });

  it("refuse an answer that did not go through the quota", async () => {
    const all = buildWorkloads(await loadOperations());
    const managed = all.find((w) => w.name === "rest-sum-managed");
    if (!managed) throw new Error("no rest-sum-managed");
    const body = JSON.stringify({ result: 6, decimal: "6", count: 3 });
    const answer = (headers: Record<string, string>) =>
      new Response(body, {
        status: 200,
        headers: { "content-type": "application/json", ...headers },
      });
    const realFetch = globalThis.fetch;
    try {
      globalThis.fetch = async () => answer({});
      expect(await checkWorkload("http://127.0.0.1:1", managed)).toEqual([
        expect.stringMatching(/ratelimit-policy: \(absent\)/),
      ]);
      const policy = `"k";q=${BENCH_QUOTA.limit};w=${BENCH_QUOTA.windowSeconds}`;
      globalThis.fetch = async () => answer({ "ratelimit-policy": policy });
      expect(await checkWorkload("http://127.0.0.1:1", managed)).toEqual([]);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

describe("createManagedKey", () => {
  const answering = async (status: number, body: unknown, run: () => Promise<unknown>) => {
    const realFetch = globalThis.fetch;
    try {
      globalThis.fetch = async () => new Response(JSON.stringify(body), { status });
      return await run();
    } finally {
      globalThis.fetch = realFetch;
    }
  };
  const create = () => createManagedKey("http://127.0.0.1:1", "t".repeat(32));

  it("resolves to the secret of a key holding the bench's plan", async () => {
    await expect(
      answering(201, { key: "ucs_abc", plan: { ...BENCH_QUOTA } }, create),
    ).resolves.toBe("ucs_abc");
  });

  it("refuses a key without that plan, and a refusal", async () => {
    await expect(answering(201, { key: "ucs_abc", plan: null }, create)).rejects.toThrow(
      /made a key with plan null/,
    );
    await expect(answering(401, { detail: "no" }, create)).rejects.toThrow(/→ 401/);
  });
});

describe("holds", () => {
  it.each([
    [{ a: 1, _meta: { remaining: 9 } }, { a: 1 }, true],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: [1, { b: 2, c: 3 }] }, { a: [1, { b: 2 }] }, true],
    [{ a: [1, 2, 3] }, { a: [1, 2] }, false],
    [{ a: "1" }, { a: 1 }, false],
    [null, {}, false],
  ])("%j holds %j: %s", (value, expected, result) => {
    expect(holds(value, expected)).toBe(result);
  });
});

describe("every service row against the service", () => {
  it("is answered as its workload expects (the service's answers may grow, the bench must not break)", async () => {
    const operations = await loadOperations();
    const env = shippedEnv("unused");
    const app = await buildApp({
      config: loadConfig({ ...env, NODE_ENV: "test", ADMIN_TOKEN: undefined }),
      operations,
      logger: false,
    });
    const realFetch = globalThis.fetch;
    try {
      globalThis.fetch = (async (input: string, init: RequestInit) => {
        const url = new URL(input);
        const res = await app.inject({
          method: (init.method ?? "GET") as "GET",
          url: url.pathname + url.search,
          headers: init.headers as Record<string, string>,
          payload: (init.body as string | null) ?? undefined,
        });
        return new Response(res.body, {
          status: res.statusCode,
          headers: res.headers as Record<string, string>,
        });
      }) as typeof fetch;
      const rows = buildWorkloads(operations).filter(
        (w) => w.server.startsWith("service") && !w.managedKey,
      );
      expect(rows.map((w) => w.name)).toContain("mcp-sum");
      for (const row of rows) expect(await checkWorkload("http://bench", row)).toEqual([]);
    } finally {
      globalThis.fetch = realFetch;
      await app.close();
    }
  });
});
