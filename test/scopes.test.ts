/**
 * Scopes on every surface (API.md §7): a key uses only the operations its scopes match.
 * REST answers 403; GraphQL answers each field out of scope with null and FORBIDDEN while
 * the others answer; MCP lists and runs only the tools in scope. And MCP's tool sets:
 * `POST /mcp/<area>` serves that area's tools only.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeySource } from "../src/access/keys.js";
import { Principal } from "../src/access/principal.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { toolNameOf } from "../src/mcp/tools.js";
import { allOperations, TEST_KEY } from "./helpers.js";

const operations = await allOperations();
const areas = [...new Set(operations.map((operation) => operation.area))];
const MATH_KEY = "math-and-one-hash-key";
const NOTHING_KEY = "no-scope-key";
const HMAC = operations.find((o) => o.area === "hash" && o.name === "hmac-md5");
const SUM = operations.find((o) => o.area === "math" && o.name === "sum");

/** Keys with scopes of their own, as the managed-key directory answers them. */
const scoped: KeySource = {
  find: (presented) =>
    presented === MATH_KEY
      ? new Principal("k-math", "ucs_math", "math", ["math", "hash/hmac-md5"], null, null, true)
      : presented === NOTHING_KEY
        ? new Principal("k-none", "ucs_none", "none", [], null, null, true)
        : undefined,
};

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp({
    config: loadConfig({
      API_KEYS: TEST_KEY,
      AUTH_FAILURE_LIMIT: "0",
      MCP_TOOL_SEARCH_THRESHOLD: "0",
    }),
    operations,
    logger: false,
    keySources: [scoped],
  });
});
afterAll(() => app.close());

async function rpc(path: string, key: string, method: string, params: unknown = {}) {
  const response = await app.inject({
    method: "POST",
    url: path,
    headers: {
      "x-api-key": key,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
    },
    payload: { jsonrpc: "2.0", id: 1, method, params },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { result?: Record<string, unknown>; error?: { message: string } };
}

async function listed(path: string, key: string): Promise<string[]> {
  const tools = (await rpc(path, key, "tools/list")).result?.tools as { name: string }[];
  return tools.map((tool) => tool.name);
}

describe("tool sets", () => {
  it.each(areas)("/mcp/%s lists that area's tools, every one of them", async (area) => {
    const expected = operations.filter((o) => o.area === area).map(toolNameOf);
    expect(await listed(`/mcp/${area}`, TEST_KEY)).toEqual(expected);
  });

  it("/mcp lists every tool", async () => {
    // And run_recipe, whose steps may be any of them (docs/recipes.md).
    expect(await listed("/mcp", TEST_KEY)).toEqual([...operations.map(toolNameOf), "run_recipe"]);
  });

  it("a set does not run another area's tool", async () => {
    const answer = await rpc("/mcp/hash", TEST_KEY, "tools/call", {
      name: "math_sum",
      arguments: { numbers: ["1"] },
    });
    expect(answer.error?.message).toMatch(/Unknown tool: math_sum/);
  });

  it("an unknown area is a 404", async () => {
    const response = await app.inject({ method: "POST", url: "/mcp/nope", payload: {} });
    expect(response.statusCode).toBe(404);
  });
});

describe("scopes", () => {
  it("a key lists only the tools its scopes include, on /mcp and on a set", async () => {
    const inScope = operations.filter((o) => o.area === "math" || o === HMAC).map(toolNameOf);
    expect(await listed("/mcp", MATH_KEY)).toEqual([...inScope, "run_recipe"]);
    expect(await listed("/mcp/hash", MATH_KEY)).toEqual(["hash_hmac_md5"]);
    expect(await listed("/mcp/misc", MATH_KEY)).toEqual([]);
    expect(await listed("/mcp", NOTHING_KEY)).toEqual([]);
  });

  it("a key runs the tools in its scopes and is refused the others", async () => {
    expect(SUM && HMAC).toBeTruthy();
    const ok = await rpc("/mcp", MATH_KEY, "tools/call", {
      name: "math_sum",
      arguments: { numbers: ["0.1", "0.2"] },
    });
    expect(ok.result?.structuredContent).toMatchObject({ decimal: "0.3" });
    const refused = await rpc("/mcp", MATH_KEY, "tools/call", {
      name: "misc_fizzbuzz",
      arguments: { start: 1, end: 3 },
    });
    expect(refused.error?.message).toMatch(/Unknown tool: misc_fizzbuzz/);
  });
});

describe("REST", () => {
  it.each([
    ["/v1/math/sum?numbers=1,2", MATH_KEY, 200],
    ["/v1/hash/hmac-md5?text=a&key=b", MATH_KEY, 200],
    ["/v1/misc/status-code?code=404", MATH_KEY, 403],
    ["/v1/math/sum?numbers=1,2", NOTHING_KEY, 403],
    ["/v1/misc/status-code?code=404", TEST_KEY, 200],
  ])("%s with %s → %i", async (url, key, status) => {
    const response = await app.inject({ url, headers: { "x-api-key": key } });
    expect(response.statusCode).toBe(status);
    if (status === 403) {
      expect(response.json()).toEqual({
        detail: `This API key's scopes do not include ${url.slice(4, url.indexOf("?"))}`,
      });
    }
  });

  it("403 comes after the key and before validation", async () => {
    const response = await app.inject({
      url: "/v1/misc/status-code?code=nope",
      headers: { "x-api-key": MATH_KEY },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe("GraphQL", () => {
  it("each field out of scope is null with FORBIDDEN; the fields in scope answer", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/graphql",
      headers: { "x-api-key": MATH_KEY, "content-type": "application/json" },
      payload: {
        query:
          '{ math { sum(numbers: ["0.1", "0.2"]) { decimal } } misc { statusCode(code: 404) { reason } } hash { hmacMd5(text: "a", key: "b") { algorithm } } }',
      },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.data).toEqual({
      math: { sum: { decimal: "0.3" } },
      misc: { statusCode: null },
      hash: { hmacMd5: { algorithm: "hmac-md5" } },
    });
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({
      message: "This API key's scopes do not include misc/status-code",
      path: ["misc", "statusCode"],
      extensions: { code: "FORBIDDEN" },
    });
  });

  it("a key with every scope is never refused", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/graphql",
      headers: { "x-api-key": TEST_KEY, "content-type": "application/json" },
      payload: { query: "{ misc { statusCode(code: 404) { reason } } }" },
    });
    expect(response.json()).toEqual({ data: { misc: { statusCode: { reason: "Not Found" } } } });
  });
});
