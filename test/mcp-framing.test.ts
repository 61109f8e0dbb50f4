/**
 * `POST /mcp` framing (src/mcp/exchange.ts): one long-lived server answers every request,
 * framed as the SDK's stateless transport with JSON responses frames it. Each row is a
 * request and what it gets back; then clients that reuse the same JSON-RPC ids at once.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BATCH_SIZE } from "../src/mcp/exchange.js";
import { AUTH, testApp } from "./helpers.js";

const JSON_AND_SSE = "application/json, text/event-stream";
const call = (id: number | string, numbers: string[]) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "math_sum", arguments: { numbers } },
});
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "framing-test", version: "1.0.0" },
  },
};

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(async () => {
  await app.close();
});

function post(body: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: "POST",
    url: "/mcp",
    headers: { ...AUTH, accept: JSON_AND_SSE, "content-type": "application/json", ...headers },
    payload: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("POST /mcp framing", () => {
  it.each([
    [
      "Accept without text/event-stream",
      call(1, ["1"]),
      { accept: "application/json" },
      406,
      -32000,
    ],
    [
      "Accept without application/json",
      call(1, ["1"]),
      { accept: "text/event-stream" },
      406,
      -32000,
    ],
    ["a text/plain body", "{}", { "content-type": "text/plain" }, 415, -32000],
    ["a message that is not JSON-RPC", { hello: "world" }, {}, 400, -32700],
    [
      "an id past the safe integers (once held until the response timeout)",
      { jsonrpc: "2.0", id: 2 ** 60, method: "ping" },
      {},
      400,
      -32700,
    ],
    ["a batch of two initializations", [INITIALIZE, { ...INITIALIZE, id: 2 }], {}, 400, -32600],
    [
      `a batch over ${MAX_BATCH_SIZE} messages`,
      Array.from({ length: MAX_BATCH_SIZE + 1 }, (_, i) => ({
        jsonrpc: "2.0",
        id: i,
        method: "ping",
      })),
      {},
      400,
      -32600,
    ],
    [
      "an unsupported Mcp-Protocol-Version",
      call(1, ["1"]),
      { "mcp-protocol-version": "1999-01-01" },
      400,
      -32000,
    ],
  ])("%s: %i… as the SDK's transport answers", async (_why, body, headers, status, code) => {
    const response = await post(body, headers);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({
      jsonrpc: "2.0",
      error: { code, message: expect.any(String) },
      id: null,
    });
  });

  it.each([
    ["without params", { jsonrpc: "2.0", id: 3, method: "tools/call" }],
    [
      "with a name that is no string",
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: 5 } },
    ],
  ])("tools/call %s: Invalid params (-32602), not an internal error", async (_why, body) => {
    const response = await post(body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ jsonrpc: "2.0", id: 3, error: { code: -32602 } });
  });

  it.each([
    [
      "a call",
      (args: object) => ({
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "math_sum", arguments: args },
      }),
    ],
  ])(
    "%s whose arguments have more than 100 names is refused whole (each would be a problem listed)",
    async (_why, make) => {
      const args = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`x${i}`, 1]));
      for (const body of [make(args), [make(args), make({ numbers: ["1"] })]]) {
        const response = await post(body);
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toMatchObject({
          code: -32600,
          message: expect.stringMatching(/more than 100 names/),
        });
      }
      const fine = await post(
        make({
          ...Object.fromEntries(Array.from({ length: 99 }, (_, i) => [`x${i}`, 1])),
          numbers: ["1"],
        }),
      );
      expect(fine.statusCode).toBe(200);
    },
  );

  it.each([
    ["lists", (n: number) => ({ numbers: Array(n).fill("1") })],
    [
      "an object's fields",
      (n: number) => ({
        numbers: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1])),
      }),
    ],
  ])(
    "a batch whose calls send more than 10,000 items in %s together is refused whole",
    async (_what, args) => {
      const call = (id: number, n: number) => ({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "math_sum", arguments: args(n) },
      });
      const refused = await post([call(1, 5_000), call(2, 5_001)]);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({
        code: -32600,
        message: expect.stringMatching(/more than 10000 list items/),
      });
      const answered = await post([call(1, 5_000), call(2, 4_999)]);
      expect(answered.statusCode).toBe(200);
    },
  );

  it("a cancellation in a batch cancels nothing: every call is answered (the server's ids are its own)", async () => {
    // A fresh server numbers the requests it is handed from 1: these cancellations name the
    // ids its own calls get, which once cancelled them and left the HTTP request unanswered.
    const fresh = await testApp();
    try {
      const cancel = (requestId: number) => ({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId },
      });
      const body = [call(1, ["1", "2"]), ...Array.from({ length: 99 }, (_, i) => cancel(i + 1))];
      for (let round = 0; round < 3; round++) {
        const response = await fresh.inject({
          method: "POST",
          url: "/mcp",
          headers: { ...AUTH, accept: JSON_AND_SSE, "content-type": "application/json" },
          payload: JSON.stringify(body),
        });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({
          id: 1,
          result: { structuredContent: { decimal: "3" } },
        });
      }
    } finally {
      await fresh.close();
    }
  });

  it("initialize: the server's capabilities, with the client's id", async () => {
    const response = await post({ ...INITIALIZE, id: "init-7" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.json()).toMatchObject({
      jsonrpc: "2.0",
      id: "init-7",
      result: { protocolVersion: "2025-06-18", capabilities: { tools: {} } },
    });
  });

  it("a notification alone: 202 with no body", async () => {
    const response = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(response.statusCode).toBe(202);
    expect(response.body).toBe("");
  });

  it("a batch: every response, in order, each with its own id", async () => {
    const response = await post([
      call("a", ["1", "2"]),
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 7, method: "ping" },
      { jsonrpc: "2.0", id: 8, method: "no/such/method" },
    ]);
    expect(response.statusCode).toBe(200);
    const [sum, ping, unknown] = response.json();
    expect(sum).toMatchObject({ id: "a", result: { structuredContent: { decimal: "3" } } });
    expect(ping).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
    expect(unknown).toMatchObject({ id: 8, error: { code: -32601 } });
  });

  it("clients using the same ids at once each get their own answers", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(call(1, [String(i), "0.5"]))),
    );
    answers.forEach((response, i) => {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: 1,
        result: { structuredContent: { decimal: `${i}.5` } },
      });
    });
  });
});
