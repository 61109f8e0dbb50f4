/**
 * MCP tools from the registry, in-process over Streamable HTTP with the SDK's client:
 * tool metadata, the input schemas against every example and the contract's bad values,
 * every bad value as a tool call (the same problems as REST's 422), metrics, and a
 * dropped-in module appearing as a tool. The started process and stdio are in
 * test/process/mcp.test.ts.
 */
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import Ajv2020 from "ajv/dist/2020.js";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { planFor, QueryValues, toInput } from "../src/core/query.js";
import { DECIMAL_LITERAL } from "../src/kit/decimal.js";
import type { AnyOperation } from "../src/kit/define.js";
import type { Problem } from "../src/kit/errors.js";
import { describeParam } from "../src/kit/params.js";
import { LIST_BYTES_PER_UNIT, listUnits, quotaUnitsOf } from "../src/mcp/http.js";
import { toolNameOf } from "../src/mcp/tools.js";
import { DEFAULT_OPERATIONS_DIR, loadOperations } from "../src/registry/loader.js";
import { badValuesFor } from "./bad-values.js";
import { AUTH, allOperations, queryOf, TEST_KEY, testApp, urlOf } from "./helpers.js";
import { asToolProblems, callOperation, httpClient, textJson } from "./mcp-helpers.js";

const operations = await allOperations();

/**
 * Bad values a JSON Schema cannot refuse: the literal is well-formed and short, and only
 * the digits it would need in plain notation break the limit. The tool call refuses them
 * (checked below with every other bad value).
 */
const BEYOND_JSON_SCHEMA = new Map([
  ["huge exponent", "1e999999999 needs a billion digits written out"],
  ["tiny exponent", "1e-999999999 needs a billion digits written out"],
  ["item huge exponent", "1e999999999 needs a billion digits written out"],
  ["item tiny exponent", "1e-999999999 needs a billion digits written out"],
]);

interface BadCase {
  name: string;
  why: string;
  /** The REST query of the case. */
  query: string;
  /** The same input as tool arguments (query values through REST's conversion). */
  args: Record<string, unknown>;
}

/** The contract's bad values as both a query and tool arguments; repeats have no JSON form. */
function badCases(operation: AnyOperation): BadCase[] {
  const base = (operation.examples[0]?.input ?? {}) as Record<string, unknown>;
  const plan = planFor(operation);
  return Object.entries(operation.input.shape).flatMap(([name, schema]) => {
    const param = describeParam(schema);
    const example = base[name] ?? operation.examples.find((e) => name in e.input)?.input[name];
    const valid = example === undefined ? ["1"] : [example].flat().map(String);
    const rest = { ...base };
    delete rest[name];
    // Raw spellings are percent-encoding faults of a query string: JSON has no such thing.
    const cases = badValuesFor(param, valid)
      .filter((bad) => !bad.raw)
      .map((bad) => ({ why: bad.why, values: bad.values }));
    if (param.required) cases.push({ why: "missing", values: [] });
    return cases.flatMap(({ why, values }) => {
      const query = [
        queryOf(rest),
        ...values.map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(v)}`),
      ]
        .filter(Boolean)
        .join("&");
      const queryValues = new QueryValues();
      for (const [key, value] of new URLSearchParams(query)) queryValues.add(key, value);
      const converted = toInput(plan, queryValues);
      if (converted.problems.length > 0) return [];
      return [{ name, why, query, args: converted.input }];
    });
  });
}

let app: FastifyInstance;
let client: Client;
let tools: Map<string, Tool>;

beforeAll(async () => {
  // Every tool listed whatever the catalogue's size: each is checked below.
  app = await testApp({ MCP_TOOL_SEARCH_THRESHOLD: "0" });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as { port: number };
  client = await httpClient(`http://127.0.0.1:${port}`, TEST_KEY);
  tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

describe("tool metadata, from each module", () => {
  it.each(operations.map((operation) => [toolNameOf(operation), operation] as const))(
    "%s",
    (name, operation) => {
      expect(name).toBe(`${operation.area}_${operation.name}`.replaceAll(/[/-]/g, "_"));
      const tool = tools.get(name);
      expect(tool?.title).toBe(operation.summary);
      expect(tool?.description).toContain(operation.description);
      expect(tool?.annotations).toMatchObject({
        readOnlyHint: true,
        idempotentHint: operation.nondeterministic === undefined,
        openWorldHint: false,
      });
      expect(tool?.inputSchema.type).toBe("object");
      expect(tool?.outputSchema?.type).toBe("object");
      expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(
        Object.keys(operation.input.shape),
      );
    },
  );

  it("declares would-you-rather, random without a seed, not idempotent", () => {
    expect(tools.get("fun_would_you_rather")?.annotations?.idempotentHint).toBe(false);
  });
});

describe.each(
  operations.map((operation) => [`${operation.area}/${operation.name}`, operation] as const),
)("%s", (_id, operation) => {
  const ajv = new Ajv2020.default({ strict: true, allErrors: true, allowUnionTypes: true });
  ajv.addFormat("decimal", DECIMAL_LITERAL);
  const validate = () => {
    const tool = tools.get(toolNameOf(operation));
    if (!tool) throw new Error(`no tool ${toolNameOf(operation)}`);
    return ajv.compile(tool.inputSchema);
  };

  it.each(operation.examples.map((example) => [example.title, example] as const))(
    "the input schema takes example '%s', and the call answers REST's body",
    async (_title, example) => {
      const check = validate();
      expect(check(example.input), JSON.stringify(check.errors)).toBe(true);
      const result = await callOperation(client, operation, example.input);
      const rest = await app.inject({
        url: urlOf(operation, queryOf(example.input)),
        headers: AUTH,
      });
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toEqual(rest.json());
      expect((result.content[0] as { text: string }).text).toBe(rest.body);
    },
  );

  it.each(badCases(operation).map((bad) => [bad.name, bad.why, bad] as const))(
    "bad %s (%s): refused by the schema, and as a call with REST's problems",
    async (_name, why, bad) => {
      const check = validate();
      const args = JSON.parse(JSON.stringify(bad.args)) as Record<string, unknown>;
      // The table above stays true: what it lists passes the schema, everything else fails it.
      // A decimal's minimum has no JSON Schema form for its string spelling ("-1" matches
      // the literal's pattern): the call refuses it, as REST does.
      const decimalBelowMinimum =
        why === "below minimum" &&
        describeParam(operation.input.shape[bad.name] as never).kind === "decimal";
      expect(check(bad.args), why).toBe(BEYOND_JSON_SCHEMA.has(why) || decimalBelowMinimum);
      const result = await callOperation(client, operation, args);
      expect(result.isError).toBe(true);
      const { detail } = textJson(result) as { detail: Problem[] };
      expect(detail.some((p) => p.loc[0] === "arguments" && p.loc[1] === bad.name)).toBe(true);
      // A JSON round trip can change what is sent (a 10,000-digit integer is Infinity, sent as null).
      if (JSON.stringify(args) === JSON.stringify(bad.args)) {
        const rest = await app.inject({ url: urlOf(operation, bad.query), headers: AUTH });
        expect(rest.statusCode).toBe(422);
        expect(detail).toEqual(asToolProblems(rest.json().detail));
      }
    },
  );
});

describe("tool calls", () => {
  const sum = operations.find((o) => o.area === "math" && o.name === "sum") as AnyOperation;

  it.each([
    ["strings keep every digit", { numbers: ["0.1", "0.2"] }, "0.3"],
    ["numbers are taken as their shortest text", { numbers: [0.1, 0.2] }, "0.3"],
    ["both at once", { numbers: ["1e-30", 1] }, "1.000000000000000000000000000001"],
  ])("decimals: %s", async (_why, args, decimal) => {
    const result = await callOperation(client, sum, args);
    expect(result.structuredContent).toMatchObject({ decimal });
  });

  it("lists every problem, unknown arguments included, as REST's 422 does", async () => {
    const result = await callOperation(client, sum, { numbers: ["1", "x"], nope: 1 });
    const rest = await app.inject({ url: "/v1/math/sum?numbers=1,x&nope=1", headers: AUTH });
    expect(result.isError).toBe(true);
    expect(textJson(result)).toEqual({ detail: asToolProblems(rest.json().detail) });
  });

  it("answers an unknown question id with REST's 404 text", async () => {
    const wyr = operations.find((o) => o.name === "would-you-rather") as AnyOperation;
    const result = await callOperation(client, wyr, { id: "food-999" });
    const rest = await app.inject({ url: urlOf(wyr, "id=food-999"), headers: AUTH });
    expect(rest.statusCode).toBe(404);
    expect(result.isError).toBe(true);
    expect(textJson(result)).toEqual(rest.json());
  });

  it("counts a structured answer's bytes twice against the budget, as a batch does", async () => {
    // Ten thousand numbers, each 320 characters of labels: about 3.2 MB over REST, under
    // the 4 MiB budget; twice that over MCP (text and structured content), over it.
    const fizzbuzz = operations.find((o) => o.name === "fizzbuzz") as AnyOperation;
    const args = {
      start: -1_000_000_000_000_000,
      end: -999_999_999_990_001,
      rules: Array.from({ length: 10 }, () => `1:${"W".repeat(32)}`),
    };
    const rest = await app.inject({ url: urlOf(fizzbuzz, queryOf(args)), headers: AUTH });
    expect(rest.statusCode).toBe(200);
    const result = await callOperation(client, fizzbuzz, args);
    expect(result.isError).toBe(true);
    expect(textJson(result)).toEqual({
      detail: [
        {
          loc: expect.arrayContaining(["arguments"]),
          msg: expect.stringMatching(/^Value error, the answer would take about \d+ bytes/),
          type: "value_error",
        },
      ],
    });
  });

  it("an unknown tool is a protocol error", async () => {
    await expect(client.callTool({ name: "math_nope", arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
  });

  it("counts calculations with gateway=mcp", async () => {
    await callOperation(client, sum, { numbers: ["1"] });
    const text = (await app.inject({ url: "/metrics", headers: AUTH })).body;
    expect(text).toMatch(
      /calculations_total\{operation="math\/sum",gateway="mcp",outcome="ok"\} [1-9]/,
    );
  });
});

describe("quota units of a request's messages", () => {
  const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "math_sum" } };
  it.each([
    ["one tools/call", 1, [call]],
    [
      "a batch of two calls and a list (3 units)",
      5,
      [call, call, { ...call, method: "tools/list" }],
    ],
    ["initialize", 0, [{ jsonrpc: "2.0", id: 1, method: "initialize" }]],
    ["ping", 0, [{ jsonrpc: "2.0", id: 1, method: "ping" }]],
    ["a notification", 0, [{ jsonrpc: "2.0", method: "notifications/initialized" }]],
    ["an unknown method", 0, [{ jsonrpc: "2.0", id: 1, method: "resources/list" }]],
    ["null", 0, [null]],
  ])("%s: %i units", (_why, units, messages) => {
    expect(quotaUnitsOf(messages, 3)).toBe(units);
  });

  it("prices a list-like answer by its size: one unit per 16 KiB begun, at least 1", () => {
    expect(LIST_BYTES_PER_UNIT).toBe(16 * 1024);
    expect([0, 1, 16 * 1024, 16 * 1024 + 1, 48_000].map(listUnits)).toEqual([1, 1, 1, 2, 3]);
  });
});

describe("the quota: only what is served is charged", () => {
  const LIMIT = 20;
  const JSON_AND_SSE = "application/json, text/event-stream";
  const sumCall = (id: number, numbers: unknown = ["1"]) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "math_sum", arguments: { numbers } },
  });
  const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
  const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "quota-test", version: "1.0.0" },
    },
  };
  let limited: FastifyInstance | undefined;
  let unitsPerList = 0;

  beforeAll(async () => {
    // The list's price, from its size: the registry's tools, written as JSON.
    const tools = (await client.listTools()).tools;
    unitsPerList = listUnits(Buffer.byteLength(JSON.stringify({ tools })));
    expect(unitsPerList).toBeGreaterThanOrEqual(2);
  });
  afterEach(async () => {
    await limited?.close();
    limited = undefined;
  });

  /** An app of its own for each test, so each starts with a full quota. */
  const start = async (limit = LIMIT) => {
    limited = await testApp({
      RATE_LIMIT: String(limit),
      RATE_LIMIT_WINDOW: "60",
      MCP_TOOL_SEARCH_THRESHOLD: "0",
    });
  };
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    (limited as FastifyInstance).inject({
      method: "POST",
      url: "/mcp",
      headers: { ...AUTH, accept: JSON_AND_SSE, "content-type": "application/json", ...headers },
      payload: typeof body === "string" ? body : JSON.stringify(body),
    });
  const remaining = (response: { headers: Record<string, unknown> }) =>
    Number(/;r=(\d+)/.exec(String(response.headers.ratelimit))?.[1]);

  it("charges nothing for a request refused whole: framing, batch bound, arguments, budget", async () => {
    await start();
    const manyNames = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`x${i}`, 1]));
    const refusals: [string, unknown, Record<string, string>, number][] = [
      [
        "101 calls (over the batch bound)",
        Array.from({ length: 101 }, (_, i) => sumCall(i)),
        {},
        400,
      ],
      [
        "calls with an Accept without text/event-stream",
        [sumCall(1), sumCall(2)],
        { accept: "application/json" },
        406,
      ],
      [
        "a call sent as text/plain",
        JSON.stringify(sumCall(1)),
        { "content-type": "text/plain" },
        415,
      ],
      ["calls beside a message that is not JSON-RPC", [sumCall(1), { hello: "world" }], {}, 400],
      [
        "a call with an unsupported protocol version",
        sumCall(1),
        { "mcp-protocol-version": "1999-01-01" },
        400,
      ],
      [
        "a call with 101 argument names",
        { ...sumCall(1), params: { name: "math_sum", arguments: manyNames } },
        {},
        400,
      ],
      [
        "calls over the batch's list items",
        [sumCall(1, Array(6_000).fill("1")), sumCall(2, Array(6_000).fill("1"))],
        {},
        400,
      ],
    ];
    for (const [why, body, headers, status] of refusals) {
      const response = await post(body, headers);
      expect(response.statusCode, why).toBe(status);
    }
    const served = await post(sumCall(9));
    expect(served.statusCode).toBe(200);
    expect(remaining(served)).toBe(LIMIT - 1);
  });

  it("charges a batch once: its calls, and each tools/list by the list's size", async () => {
    // Room for two lists, whatever the catalogue's size.
    const limit = 2 + 2 * unitsPerList + LIMIT;
    await start(limit);
    const batch = await post([sumCall(1), sumCall(2), list]);
    expect(batch.statusCode).toBe(200);
    expect(remaining(batch)).toBe(limit - 2 - unitsPerList);
    const alone = await post(list);
    expect(alone.statusCode).toBe(200);
    expect(remaining(alone)).toBe(limit - 2 - 2 * unitsPerList);
  });

  it("keeps none of a refused request's units: what is left stays usable", async () => {
    await start();
    const spend = await post(Array.from({ length: LIMIT - 2 }, (_, i) => sumCall(i)));
    expect(remaining(spend)).toBe(2);
    const tooMany = await post(Array.from({ length: 10 }, (_, i) => sumCall(i)));
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.headers["retry-after"]).toBeDefined();
    expect(tooMany.json().detail).toMatch(/asks for 10/);
    expect(remaining(tooMany)).toBe(2);
    for (const left of [1, 0]) {
      const call = await post(sumCall(1));
      expect(call.statusCode).toBe(200);
      expect(remaining(call)).toBe(left);
    }
  });

  it("serves initialize, ping and notifications free while a unit is left", async () => {
    await start();
    await post(Array.from({ length: LIMIT - 1 }, (_, i) => sumCall(i)));
    for (const body of [
      initialize,
      ping,
      [ping, ping],
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]) {
      const response = await post(body);
      expect(response.statusCode, JSON.stringify(body)).toBeLessThan(300);
      expect(remaining(response)).toBe(1);
    }
    // The list costs more than the unit left: refused, and the unit is still there.
    expect((await post(list)).statusCode).toBe(429);
    expect((await post(sumCall(1))).statusCode).toBe(200);
  });

  it("refuses a key with no unit left everything, free or not, with a small 429", async () => {
    await start();
    expect(remaining(await post(Array.from({ length: LIMIT }, (_, i) => sumCall(i))))).toBe(0);
    for (const body of [
      list,
      initialize,
      ping,
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]) {
      const response = await post(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(429);
      expect(response.headers["retry-after"]).toBeDefined();
      expect(response.body.length).toBeLessThan(300);
      expect(response.json().detail).toMatch(/^Too many requests/);
    }
  });
});

describe("a module dropped in", () => {
  it("appears as a tool with no other edit", async () => {
    const fixtures = fileURLToPath(new URL("./fixtures/operations/", import.meta.url));
    const withFixture = await buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY, MCP_TOOL_SEARCH_THRESHOLD: "0" }),
      operations: await loadOperations([DEFAULT_OPERATIONS_DIR, fixtures]),
      logger: false,
    });
    await withFixture.listen({ host: "127.0.0.1", port: 0 });
    const { port } = withFixture.server.address() as { port: number };
    const fixtureClient = await httpClient(`http://127.0.0.1:${port}`, TEST_KEY);
    try {
      const names = (await fixtureClient.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("extra_echo");
      const result = await fixtureClient.callTool({ name: "extra_echo", arguments: { n: 21 } });
      expect(result.structuredContent).toEqual({ n: 21, doubled: 42 });
    } finally {
      await fixtureClient.close();
      await withFixture.close();
    }
  });
});
