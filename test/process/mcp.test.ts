/**
 * MCP against real processes, with the SDK's own client: Streamable HTTP on a started
 * service (the tool list is the registry; every example answers REST's body; bad input
 * is isError with REST's problems; no key is a 401 before MCP; a quota of N allows
 * exactly N tool calls after a free initialization, and nothing once spent; the request
 * log line), and stdio on `src/mcp/stdio.ts`.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathOf } from "../../src/core/path.js";
import type { Problem } from "../../src/kit/errors.js";
import { toolNameOf } from "../../src/mcp/tools.js";
import { allOperations, queryOf } from "../helpers.js";
import {
  asToolProblems,
  callOperation,
  httpClient,
  stdioClient,
  textJson,
} from "../mcp-helpers.js";
import { HOST, ROOT, type Server, startServer, stopAll, waitFor } from "./helpers.js";

const KEY = "mcp-process-key-0123456789";
const operations = await allOperations();
const examples = operations.flatMap((operation) =>
  operation.examples.map(
    (example) =>
      [`${operation.area}/${operation.name}: ${example.title}`, operation, example] as const,
  ),
);
const sum = operations.find((o) => o.area === "math" && o.name === "sum");
if (!sum) throw new Error("math/sum is not in the registry");

let server: Server;
const origin = () => `http://${HOST}:${server.port}`;
const rest = (path: string) => server.get(path, { headers: { "x-api-key": KEY } });

beforeAll(async () => {
  // Every tool listed whatever the catalogue's size: each is checked.
  server = await startServer({ API_KEYS: KEY, MCP_TOOL_SEARCH_THRESHOLD: "0" });
}, 60_000);
afterAll(stopAll);

/** Every tool of the registry, and each example's answer equal to REST's body. */
function behavesAsTheRegistry(connect: () => Promise<Client>) {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  }, 60_000);
  afterAll(() => client?.close());

  it("lists one tool per operation, and run_recipe", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.sort()).toEqual([...operations.map(toolNameOf), "run_recipe"].sort());
  });

  it.each(examples)("%s: the same body as REST", async (_id, operation, example) => {
    const result = await callOperation(client, operation, example.input);
    const answer = await rest(`${pathOf(operation)}?${queryOf(example.input)}`);
    expect(answer.status).toBe(200);
    expect(result.isError ?? false).toBe(false);
    expect((result.content[0] as { text: string }).text).toBe(answer.body);
    expect(result.structuredContent).toEqual(JSON.parse(answer.body));
  });

  it("bad input: isError with REST's problems", async () => {
    const result = await callOperation(client, sum as never, { numbers: ["1", "abc", ""] });
    const answer = await rest("/v1/math/sum?numbers=1&numbers=abc&numbers=");
    expect(answer.status).toBe(422);
    expect(result.isError).toBe(true);
    const { detail } = JSON.parse(answer.body) as { detail: Problem[] };
    expect(textJson(result)).toEqual({ detail: asToolProblems(detail) });
  });
}

describe("Streamable HTTP on a started service", () => {
  behavesAsTheRegistry(() => httpClient(origin(), KEY));

  it.each([
    ["no key", {}],
    ["a wrong key", { "x-api-key": `${KEY}x` }],
  ])("%s: 401 before anything MCP reads the body", async (_why, headers) => {
    const response = await fetch(`${origin()}/mcp`, {
      method: "POST",
      headers: { ...headers, "content-type": "text/plain" },
      body: "not even JSON",
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBeTruthy();
    expect(await response.json()).toEqual({ detail: expect.any(String) });
    await expect(httpClient(origin(), undefined)).rejects.toThrow(/401|Unauthorized|API key/i);
  });

  it("logs each request as REST does: route, status, key id, never the key", async () => {
    const requestId = "mcp-log-line-test";
    const client = await httpClient(origin(), KEY, { "x-request-id": requestId });
    await callOperation(client, sum as never, { numbers: ["2"] });
    await client.close();
    const ours = () => server.logged("request").filter((line) => line.requestId === requestId);
    // Log lines are written in batches (every 200 ms at the latest).
    expect(await waitFor(() => ours().some((line) => line.status === 200), 5000)).toBe(true);
    expect(ours().find((line) => line.status === 200)).toMatchObject({
      method: "POST",
      route: "/mcp",
      path: "/mcp",
      keyId: expect.any(String),
    });
    expect(server.logs().some((line) => JSON.stringify(line).includes(KEY))).toBe(false);
  });
});

describe("a quota of N", () => {
  const N = 4;
  let limited: Server;
  beforeAll(async () => {
    limited = await startServer({ API_KEYS: KEY, RATE_LIMIT: String(N) });
  }, 60_000);

  it(`allows exactly ${N} tool calls after a free initialization, then nothing`, async () => {
    const client = await httpClient(`http://${HOST}:${limited.port}`, KEY);
    try {
      const outcomes: string[] = [];
      for (let i = 0; i < N + 2; i += 1) {
        try {
          const result = (await callOperation(client, sum as never, {
            numbers: [String(i)],
          })) as CallToolResult;
          outcomes.push(result.isError ? "error" : "ok");
        } catch (error) {
          outcomes.push((error as { code?: number }).code === 429 ? "429" : String(error));
        }
      }
      expect(outcomes).toEqual([...Array(N).fill("ok"), "429", "429"]);
      // The tool list is charged by its size: a key with nothing left does not get it.
      await expect(client.listTools()).rejects.toMatchObject({ code: 429 });
    } finally {
      await client.close();
    }
  });
});

describe("stdio, in-process without a key", () => {
  behavesAsTheRegistry(() => stdioClient(ROOT, { MCP_TOOL_SEARCH_THRESHOLD: "0" }));
});
