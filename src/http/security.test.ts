/**
 * CORS preflights: a browser client of each surface gets every request header it sends
 * allowed, from a configured origin only.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH, allOperations, TEST_KEY } from "../../test/helpers.js";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";

const ORIGIN = "https://app.example";

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp({
    config: loadConfig({ API_KEYS: TEST_KEY, CORS_ORIGINS: ORIGIN }),
    operations: await allOperations(),
    logger: false,
  });
});
afterAll(() => app.close());

/** What a browser asks before each surface's request (`Access-Control-Request-Headers`). */
const PREFLIGHTS = [
  { surface: "REST", method: "GET", url: "/v1/math/sum?numbers=1", headers: "x-api-key" },
  { surface: "GraphQL", method: "POST", url: "/graphql", headers: "content-type,x-api-key" },
  { surface: "MCP initialize", method: "POST", url: "/mcp", headers: "content-type,x-api-key" },
  {
    surface: "MCP after initialize",
    method: "POST",
    url: "/mcp",
    headers: "content-type,mcp-protocol-version,x-api-key",
  },
  {
    surface: "MCP with a session id",
    method: "POST",
    url: "/mcp",
    headers: "content-type,mcp-protocol-version,mcp-session-id,x-api-key",
  },
  { surface: "a client request id", method: "GET", url: "/v1/math/sum", headers: "x-request-id" },
];

describe("CORS preflight", () => {
  it.each(PREFLIGHTS)("$surface: $method $url may send $headers", async (preflight) => {
    const response = await app.inject({
      method: "OPTIONS",
      url: preflight.url,
      headers: {
        origin: ORIGIN,
        "access-control-request-method": preflight.method,
        "access-control-request-headers": preflight.headers,
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(String(response.headers["access-control-allow-methods"])).toContain(preflight.method);
    const allowed = String(response.headers["access-control-allow-headers"])
      .toLowerCase()
      .split(/\s*,\s*/);
    for (const header of preflight.headers.split(",")) expect(allowed).toContain(header);
  });

  it("allows no other origin", async () => {
    const response = await app.inject({
      method: "OPTIONS",
      url: "/mcp",
      headers: {
        origin: "https://evil.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,mcp-protocol-version,x-api-key",
      },
    });
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("answers the MCP call itself with the origin allowed", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: {
        ...AUTH,
        origin: ORIGIN,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      payload: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(response.json().result.tools.length).toBeGreaterThan(0);
  });
});
