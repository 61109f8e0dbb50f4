/**
 * `POST /mcp` to the letter of the transport spec, and usable with many tools: the Origin
 * check (403 before the key), `MCP-Protocol-Version` (400 for an invalid or unsupported
 * one; absent is 2025-03-26), JSON-RPC batches (refused from 2025-06-18), the protocol
 * versions kept working, the `search_tools` / `call_tool` pair past the threshold (narrowed
 * by set and scopes), the quota left in a call's `_meta`, and tool schemas every client
 * takes (the inspector's portability rules, reproduced in `portabilityProblems`).
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeySource } from "../src/access/keys.js";
import { Principal } from "../src/access/principal.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { execute } from "../src/core/runner.js";
import { QUOTA_META_KEY } from "../src/mcp/exchange.js";
import { RECIPE_TOOL_NAME } from "../src/mcp/recipe-tool.js";
import { CALL_TOOL, DEFAULT_TOOL_SEARCH_THRESHOLD, SEARCH_TOOLS } from "../src/mcp/search-tools.js";
import { createMcpTools, MAX_TOOL_NAME_LENGTH, toolNameOf } from "../src/mcp/tools.js";
import { allOperations, TEST_KEY } from "./helpers.js";

const operations = await allOperations();
const ALLOWED_ORIGIN = "https://agent.example";
const MATH_KEY = "math-and-one-hash-key";
const LIMIT = 50;

const scoped: KeySource = {
  find: (presented) =>
    presented === MATH_KEY
      ? new Principal("k-math", "ucs_math", "math", ["math", "hash/hmac-md5"], null, null, true)
      : undefined,
};

/** An app with every operation, `env` on top of the test key and an allowed origin. */
async function appWith(env: Record<string, string> = {}): Promise<FastifyInstance> {
  return buildApp({
    config: loadConfig({
      API_KEYS: TEST_KEY,
      AUTH_FAILURE_LIMIT: "0",
      CORS_ORIGINS: ALLOWED_ORIGIN,
      ...env,
    }),
    operations,
    logger: false,
    keySources: [scoped],
  });
}

type Rpc = {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  id?: unknown;
};

function poster(app: () => FastifyInstance) {
  return (body: unknown, headers: Record<string, string | undefined> = {}, path = "/mcp") => {
    const all: Record<string, string> = {
      "x-api-key": TEST_KEY,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
    };
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) delete all[name];
      else all[name] = value;
    }
    return app().inject({ method: "POST", url: path, headers: all, payload: JSON.stringify(body) });
  };
}

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
const call = (name: string, args: Record<string, unknown>, id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});
const initialize = (version: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: "spec-test", version: "1.0.0" },
  },
});

let app: FastifyInstance;
const post = poster(() => app);
beforeAll(async () => {
  app = await appWith({ RATE_LIMIT: String(LIMIT) });
});
afterAll(() => app.close());

const remaining = (response: { headers: Record<string, unknown> }) =>
  Number(/r=(\d+)/.exec(String(response.headers.ratelimit))?.[1]);

describe("Origin", () => {
  it("serves a request without Origin, or from an allowed one", async () => {
    expect((await post(ping(1))).statusCode).toBe(200);
    expect((await post(ping(1), { origin: ALLOWED_ORIGIN })).statusCode).toBe(200);
    expect((await post(ping(1), { origin: ALLOWED_ORIGIN }, "/mcp/math")).statusCode).toBe(200);
  });

  it.each([
    ["another origin", "http://evil.example.com"],
    ["an allowed origin's look-alike", `${ALLOWED_ORIGIN}.evil.example`],
    ["the opaque origin", "null"],
  ])("refuses %s with 403 before the key, charging nothing", async (_name, origin) => {
    const before = remaining(await post(call("math_sum", { numbers: ["1"] })));
    for (const path of ["/mcp", "/mcp/math"]) {
      for (const key of [TEST_KEY, undefined, "wrong-key"]) {
        const response = await post(
          call("math_sum", { numbers: ["1"] }),
          { origin, "x-api-key": key },
          path,
        );
        expect(response.statusCode).toBe(403);
        expect(response.headers["www-authenticate"]).toBeUndefined();
        const body = response.json() as Rpc;
        expect(body.error?.code).toBe(-32000);
        expect(body.error?.message).toMatch(/^Forbidden: this Origin is not allowed/);
        expect(body.id).toBeNull();
      }
    }
    // Only the next call's unit is gone: the refused ones cost nothing.
    expect(remaining(await post(call("math_sum", { numbers: ["1"] })))).toBe(before - 1);
  });
});

describe("MCP-Protocol-Version", () => {
  it.each(["2025-03-26", "2025-06-18", "2025-11-25", undefined])("serves %s", async (version) => {
    const response = await post(call("math_sum", { numbers: ["1", "2"] }), {
      "mcp-protocol-version": version,
    });
    expect(response.statusCode).toBe(200);
    expect((response.json() as Rpc).result?.structuredContent).toMatchObject({ decimal: "3" });
  });

  it.each([
    ["unsupported", "1999-01-01"],
    ["invalid", "latest"],
    ["empty", ""],
    ["two values", "2025-06-18, 2025-11-25"],
  ])("answers an %s version 400, charging nothing", async (_name, version) => {
    const before = remaining(await post(ping(1)));
    const response = await post(call("math_sum", { numbers: ["1"] }), {
      "mcp-protocol-version": version,
    });
    expect(response.statusCode).toBe(400);
    const body = response.json() as Rpc;
    expect(body.error?.code).toBe(-32000);
    expect(body.error?.message).toMatch(/^Bad Request: Unsupported protocol version/);
    expect(remaining(await post(ping(1)))).toBe(before);
  });

  it.each(["2025-06-18", "2025-11-25", "2025-03-26"])(
    "negotiates %s at initialization and serves it",
    async (version) => {
      const init = await post(initialize(version), { "mcp-protocol-version": undefined });
      expect(init.statusCode).toBe(200);
      const result = (init.json() as Rpc).result as {
        protocolVersion: string;
        capabilities: { tools: { listChanged: boolean } };
      };
      expect(result.protocolVersion).toBe(version);
      // Stateless HTTP has no stream to notify on: clients list again instead.
      expect(result.capabilities.tools.listChanged).toBe(false);
      const listed = await post(list, { "mcp-protocol-version": version });
      expect(listed.statusCode).toBe(200);
    },
  );
});

describe("JSON-RPC batches", () => {
  it.each(["2025-06-18", "2025-11-25"])(
    "are refused under %s, which has none, charging nothing",
    async (version) => {
      const before = remaining(await post(ping(1)));
      for (const batch of [[ping(1), ping(2)], [call("math_sum", { numbers: ["1"] })]]) {
        const response = await post(batch, { "mcp-protocol-version": version });
        expect(response.statusCode).toBe(400);
        const body = response.json() as Rpc;
        expect(body.error?.code).toBe(-32600);
        expect(body.error?.message).toMatch(/batches are not part of protocol version/);
      }
      expect(remaining(await post(ping(1)))).toBe(before);
    },
  );

  it.each([
    ["2025-03-26", "2025-03-26"],
    ["no version (2025-03-26)", undefined],
  ])("are answered under %s", async (_name, version) => {
    const response = await post([ping(1), ping(2)], { "mcp-protocol-version": version });
    expect(response.statusCode).toBe(200);
    expect((response.json() as Rpc[]).map((answer) => answer.id)).toEqual([1, 2]);
  });
});

describe("the quota in a call's _meta", () => {
  it("carries what is left after the request, as /v1/me reports it", async () => {
    const response = await post(call("math_sum", { numbers: ["1"] }));
    const meta = (response.json() as Rpc).result?._meta as Record<string, unknown>;
    expect(meta[QUOTA_META_KEY]).toEqual({
      limit: LIMIT,
      remaining: remaining(response),
      resetSeconds: expect.any(Number),
    });
    const me = await app.inject({ url: "/v1/me", headers: { "x-api-key": TEST_KEY } });
    expect((meta[QUOTA_META_KEY] as { remaining: number }).remaining).toBe(
      (me.json() as { remaining: number }).remaining,
    );
  });

  it("on invalid input too, and not on other answers", async () => {
    const bad = (await post(call("math_sum", { numbers: ["x"] }))).json() as Rpc;
    expect(bad.result?.isError).toBe(true);
    expect(
      (bad.result?._meta as Record<string, unknown> | undefined)?.[QUOTA_META_KEY],
    ).toBeDefined();
    const listed = (await post(list)).json() as Rpc;
    expect(listed.result?._meta).toBeUndefined();
  });

  it("is absent without a quota", async () => {
    const free = await appWith();
    try {
      const response = await poster(() => free)(call("math_sum", { numbers: ["1"] }));
      expect((response.json() as Rpc).result?._meta).toBeUndefined();
    } finally {
      await free.close();
    }
  });
});

/** The area with the fewest operations, and that count: the threshold of the tests below. */
const areaSizes = new Map<string, number>();
for (const operation of operations) {
  areaSizes.set(operation.area, (areaSizes.get(operation.area) ?? 0) + 1);
}
const [smallestArea, smallestSize] = [...areaSizes].reduce((best, entry) =>
  entry[1] < best[1] ? entry : best,
);

describe("search_tools / call_tool past the threshold", () => {
  let small: FastifyInstance;
  const send = poster(() => small);
  beforeAll(async () => {
    small = await appWith({ MCP_TOOL_SEARCH_THRESHOLD: String(smallestSize) });
  });
  afterAll(() => small.close());

  const names = async (path: string, key = TEST_KEY) => {
    const answer = (await send(list, { "x-api-key": key }, path)).json() as Rpc;
    return ((answer.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name);
  };
  const search = async (query: string, key = TEST_KEY, path = "/mcp", limit?: number) => {
    const answer = (
      await send(
        call(SEARCH_TOOLS, { query, ...(limit ? { limit } : {}) }),
        { "x-api-key": key },
        path,
      )
    ).json() as Rpc;
    return answer.result?.structuredContent as { tools: { name: string }[]; total: number };
  };

  it("lists the pair instead of more tools than the threshold; smaller sets list theirs", async () => {
    expect(await names("/mcp")).toEqual([SEARCH_TOOLS, CALL_TOOL]);
    expect(await names(`/mcp/${smallestArea}`)).toEqual(
      operations.filter((operation) => operation.area === smallestArea).map(toolNameOf),
    );
    // The default threshold: the pair once the catalogue is larger, else every tool.
    expect(await poster(() => app)(list).then((r) => (r.json() as Rpc).result?.tools)).toHaveLength(
      operations.length > DEFAULT_TOOL_SEARCH_THRESHOLD ? 2 : operations.length,
    );
  });

  it("finds tools by words, best first, with their full definitions", async () => {
    const found = await search("sum of numbers");
    expect(found.tools[0]?.name).toBe("math_sum");
    expect(found.tools[0]).toHaveProperty("inputSchema");
    expect(found.tools.length).toBeLessThanOrEqual(10);
    const one = await search("sum", TEST_KEY, "/mcp", 1);
    expect(one.tools).toHaveLength(1);
    expect(one.total).toBeGreaterThanOrEqual(1);
    expect((await search("zzzyyyxxx")).tools).toEqual([]);
  });

  it("calls a tool found, answering what the tool answers", async () => {
    const direct = (await send(call("math_sum", { numbers: ["0.1", "0.2"] }))).json() as Rpc;
    const through = (
      await send(call(CALL_TOOL, { name: "math_sum", arguments: { numbers: ["0.1", "0.2"] } }))
    ).json() as Rpc;
    expect(through.result).toEqual(direct.result);
    const bad = (
      await send(call(CALL_TOOL, { name: "math_sum", arguments: { numbers: ["x"] } }))
    ).json() as Rpc;
    expect(bad.result?.isError).toBe(true);
  });

  it("refuses arguments it cannot use as isError", async () => {
    for (const [name, args] of [
      [CALL_TOOL, { arguments: {} }],
      [CALL_TOOL, { name: "math_sum", arguments: [1] }],
      [SEARCH_TOOLS, {}],
      [SEARCH_TOOLS, { query: "sum", limit: 0 }],
      [SEARCH_TOOLS, { query: "sum", other: 1 }],
    ] as const) {
      const answer = (await send(call(name, args))).json() as Rpc;
      expect(answer.result?.isError, JSON.stringify(args)).toBe(true);
    }
  });

  it("searches and calls only the tools of the set and of the key's scopes", async () => {
    // crypto_checksum_md5 exists, but not for a key scoped to math and hash/hmac-md5.
    expect((await search("checksum md5")).tools.map((tool) => tool.name)).toContain(
      "crypto_checksum_md5",
    );
    const scopedFound = await search("md5", MATH_KEY);
    expect(scopedFound.tools.map((tool) => tool.name)).toEqual(["hash_hmac_md5"]);
    const everything = await search("a e i o u", MATH_KEY, "/mcp", 50);
    expect(
      everything.tools.every(
        (tool) =>
          tool.name.startsWith("math_") ||
          tool.name === "hash_hmac_md5" ||
          tool.name === RECIPE_TOOL_NAME,
      ),
    ).toBe(true);
    const outOfScope = (
      await send(call(CALL_TOOL, { name: "crypto_checksum_md5", arguments: { text: "a" } }), {
        "x-api-key": MATH_KEY,
      })
    ).json() as Rpc;
    expect(outOfScope.result?.isError).toBe(true);
    expect(JSON.stringify(outOfScope.result?.content)).toMatch(/Unknown tool: crypto_checksum_md5/);
  });
});

/**
 * Where `schema` (a tool's input or output schema, at `at`) is not portable: the MCP
 * inspector's `--strict` rules as they bear on these tools. Type arrays (single-type
 * dialects reject them), boolean schemas, subschemas with no type or combinator,
 * `$ref`/`$defs` (not every client resolves them), OpenAPI's `nullable`, `required` names
 * with no property, a root that is not an object.
 */
function portabilityProblems(schema: unknown, at: string, root = true): string[] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    return [`${at}: a schema that is not an object`];
  }
  const node = schema as Record<string, unknown>;
  const problems: string[] = [];
  if (root && node.type !== "object") problems.push(`${at}: root type is not "object"`);
  if (Array.isArray(node.type)) problems.push(`${at}: type array ${JSON.stringify(node.type)}`);
  if (!["type", "anyOf", "oneOf", "allOf", "enum", "const"].some((key) => key in node)) {
    problems.push(`${at}: no type`);
  }
  for (const key of ["$ref", "$defs", "definitions", "nullable"]) {
    if (key in node) problems.push(`${at}: ${key}`);
  }
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  for (const name of (node.required ?? []) as string[]) {
    if (!(name in properties)) problems.push(`${at}: required '${name}' has no property`);
  }
  for (const [name, sub] of Object.entries(properties)) {
    problems.push(...portabilityProblems(sub, `${at}.properties.${name}`, false));
  }
  if ("items" in node) problems.push(...portabilityProblems(node.items, `${at}.items`, false));
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    for (const [index, sub] of ((node[key] ?? []) as unknown[]).entries()) {
      problems.push(...portabilityProblems(sub, `${at}.${key}[${index}]`, false));
    }
  }
  return problems;
}

describe("portable tool definitions", () => {
  const definitions = async (threshold: string) => {
    const listing = await appWith({ MCP_TOOL_SEARCH_THRESHOLD: threshold });
    try {
      const answer = (await poster(() => listing)(list)).json() as Rpc;
      return answer.result?.tools as {
        name: string;
        title?: string;
        description?: string;
        inputSchema: unknown;
        outputSchema?: unknown;
      }[];
    } finally {
      await listing.close();
    }
  };

  it.each([
    ["every tool", "0"],
    ["the search pair", "1"],
  ])("%s: named, titled, described, with portable schemas", async (_name, threshold) => {
    const problems: string[] = [];
    for (const tool of await definitions(threshold)) {
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(tool.name)) problems.push(`${tool.name}: name`);
      if (!tool.title) problems.push(`${tool.name}: no title`);
      if (!tool.description) problems.push(`${tool.name}: no description`);
      problems.push(...portabilityProblems(tool.inputSchema, `${tool.name}.inputSchema`));
      if (tool.outputSchema !== undefined) {
        problems.push(...portabilityProblems(tool.outputSchema, `${tool.name}.outputSchema`));
      }
    }
    expect(problems).toEqual([]);
  });

  it(`refuses an operation whose tool name would pass ${MAX_TOOL_NAME_LENGTH} characters`, () => {
    const sum = operations.find((operation) => toolNameOf(operation) === "math_sum");
    const long = { ...sum, name: "n".repeat(MAX_TOOL_NAME_LENGTH) } as typeof sum & object;
    expect(() => createMcpTools([long], execute, () => {})).toThrow(/is not 1–64 letters/);
    const fits = { ...long, name: "n".repeat(MAX_TOOL_NAME_LENGTH - "math_".length) };
    expect(createMcpTools([fits], execute, () => {}).list.tools[0]?.name).toHaveLength(64);
  });

  it("keeps a nullable field's meaning: a number or null", async () => {
    const sum = (await definitions("0")).find((tool) => tool.name === "math_sum");
    const result = (sum?.outputSchema as { properties: Record<string, unknown> } | undefined)
      ?.properties.result;
    expect(result).toMatchObject({ anyOf: [{ type: "number" }, { type: "null" }] });
  });
});
