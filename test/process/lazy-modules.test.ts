/**
 * A process pays only for what it serves: packages of surfaces and stores that are not
 * used are not loaded. Traced by a preloaded module hook that prints each package resolved
 * from node_modules (test/fixtures/module-trace.mjs).
 *
 * - The MCP SDK: not loaded by start, REST, GraphQL or /docs; loaded by the first /mcp
 *   request, which answers as usual.
 * - graphql-yoga: not loaded by GraphQL's usual requests (JSON POSTs, answered by the
 *   route adapter, errors included); loaded by the first one that needs it (a GET), which
 *   answers as usual.
 * - ioredis: not loaded without REDIS_URL; rate-limiter-flexible not without a quota (the
 *   failed-authentication one included, on by default, turned off here); pg not without
 *   DATABASE_URL.
 */
import { registerHooks } from "node:module";
import { afterAll, expect, it } from "vitest";
import { HOST, startServer, stopAll } from "./helpers.js";

const KEY = "lazy-modules-test-key-0123456789abcdef";
const HEADERS = { "x-api-key": KEY };

afterAll(stopAll);

/** The packages the process has printed as loaded so far. */
function loadedPackages(stderr: string): Set<string> {
  return new Set([...stderr.matchAll(/^\[module-trace\] (\S+)$/gm)].map((match) => match[1] ?? ""));
}

it.skipIf(typeof registerHooks !== "function")(
  "the MCP SDK loads on the first /mcp request, yoga on the first GraphQL GET; ioredis not at all without REDIS_URL",
  async () => {
    const server = await startServer(
      { API_KEYS: KEY, LOG_LEVEL: "warn", AUTH_FAILURE_LIMIT: "0" },
      { nodeFlags: ["--import", "./test/fixtures/module-trace.mjs"] },
    );
    const origin = `http://${HOST}:${server.port}`;
    expect((await server.get("/v1/math/sum?numbers=1,2", { headers: HEADERS })).status).toBe(200);
    const graphql = await fetch(`${origin}/graphql`, {
      method: "POST",
      headers: { ...HEADERS, "content-type": "application/json" },
      body: JSON.stringify({ query: '{ math { sum(numbers: ["1", "2"]) { decimal } } }' }),
    });
    expect(graphql.status).toBe(200);
    // An answer with errors is written without yoga too.
    const refused = await fetch(`${origin}/graphql`, {
      method: "POST",
      headers: { ...HEADERS, "content-type": "application/json" },
      body: JSON.stringify({ query: '{ math { sum(numbers: ["x"]) { decimal } } }' }),
    });
    expect((await refused.json()).errors[0].extensions.code).toBe("BAD_USER_INPUT");
    expect((await server.get("/docs")).status).toBe(200);

    const before = loadedPackages(server.stderr);
    // The trace sees the packages the service does load.
    expect(before, server.output()).toContain("fastify");
    expect(before, server.output()).toContain("graphql");
    expect(before).not.toContain("@modelcontextprotocol/sdk");
    expect(before).not.toContain("graphql-yoga");
    expect(before).not.toContain("ioredis");
    expect(before).not.toContain("rate-limiter-flexible");
    expect(before).not.toContain("pg");

    const viaGet = await fetch(
      `${origin}/graphql?query=${encodeURIComponent('{ math { sum(numbers: ["1", "2"]) { decimal } } }')}`,
      { headers: { ...HEADERS, accept: "application/graphql-response+json" } },
    );
    expect(viaGet.status).toBe(200);
    expect(await viaGet.json()).toEqual({ data: { math: { sum: { decimal: "3" } } } });
    expect(loadedPackages(server.stderr), server.output()).toContain("graphql-yoga");

    const mcp = await fetch(`${origin}/mcp/math`, {
      method: "POST",
      headers: {
        ...HEADERS,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(200);
    const { result } = (await mcp.json()) as { result: { tools: { name: string }[] } };
    expect(result.tools.map((tool) => tool.name)).toContain("math_sum");

    const after = loadedPackages(server.stderr);
    expect(after, server.output()).toContain("@modelcontextprotocol/sdk");
    expect(after).not.toContain("ioredis");
  },
  60_000,
);
