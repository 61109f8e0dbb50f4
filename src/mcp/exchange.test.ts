/**
 * The exchange between HTTP requests and the one shared MCP server: what reaches the
 * server, and that every request is answered even when the server sends nothing.
 */
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectExchange, Exchange, frame, RESPONSE_TIMEOUT_MS } from "./exchange.js";
import type { McpTools } from "./tools.js";

/** An exchange whose "server" records what it is handed and answers nothing by itself. */
function recorded(): { exchange: Exchange; seen: JSONRPCMessage[] } {
  const exchange = new Exchange();
  const seen: JSONRPCMessage[] = [];
  exchange.onmessage = (message) => {
    seen.push(message);
  };
  return { exchange, seen };
}

const request = (id: RequestId, method: string, params: object = {}) =>
  ({ jsonrpc: "2.0", id, method, params }) as JSONRPCMessage & { id: RequestId };

afterEach(() => {
  vi.useRealTimers();
});

describe("Exchange", () => {
  it.each([
    ["notifications/initialized", true],
    ["notifications/cancelled", false],
    ["notifications/progress", false],
    ["notifications/roots/list_changed", false],
  ])("a client's %s reaches the server: %s", (method, reaches) => {
    const { exchange, seen } = recorded();
    exchange.notify({ jsonrpc: "2.0", method, params: { requestId: 1 } } as JSONRPCMessage);
    expect(seen.length).toBe(reaches ? 1 : 0);
  });

  it("a client's response (the server asks nothing) does not reach the server", () => {
    const { exchange, seen } = recorded();
    exchange.notify({ jsonrpc: "2.0", id: 1, result: {} } as JSONRPCMessage);
    expect(seen).toEqual([]);
  });

  it("answers with the client's id, through the server's own id", async () => {
    const { exchange, seen } = recorded();
    const answer = exchange.request(request("client-7", "tools/list"));
    const sent = seen[0] as { id: number };
    expect(sent.id).not.toBe("client-7");
    await exchange.send({ jsonrpc: "2.0", id: sent.id, result: { tools: [] } } as JSONRPCMessage);
    expect(await answer).toEqual({ jsonrpc: "2.0", id: "client-7", result: { tools: [] } });
    expect(exchange.waiting).toBe(0);
  });

  it("answers an internal error, and lets go of the request, when the server never responds", async () => {
    vi.useFakeTimers();
    const { exchange } = recorded();
    const answer = exchange.request(request(3, "tools/call", { name: "math_sum" }));
    expect(exchange.waiting).toBe(1);
    vi.advanceTimersByTime(RESPONSE_TIMEOUT_MS);
    expect(await answer).toMatchObject({ jsonrpc: "2.0", id: 3, error: { code: -32603 } });
    expect(exchange.waiting).toBe(0);
    // Nothing waits: the one sweeping timer has stopped.
    expect(vi.getTimerCount()).toBe(0);
  });

  it("gives up only the requests past their deadline", async () => {
    vi.useFakeTimers();
    const { exchange } = recorded();
    const first = exchange.request(request(1, "tools/list"));
    vi.advanceTimersByTime(RESPONSE_TIMEOUT_MS / 2);
    void exchange.request(request(2, "tools/list"));
    vi.advanceTimersByTime(RESPONSE_TIMEOUT_MS / 2);
    expect(await first).toMatchObject({ id: 1, error: { code: -32603 } });
    expect(exchange.waiting).toBe(1);
  });

  it("hands the server an initialize without the client's capabilities", () => {
    const { exchange, seen } = recorded();
    const clientInfo = { name: "c", version: "1" };
    void exchange.request(
      request(1, "initialize", {
        protocolVersion: "2025-06-18",
        capabilities: { experimental: { x: { pad: "x".repeat(1000) } } },
        clientInfo,
      }),
    );
    expect((seen[0] as { params: unknown }).params).toEqual({
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo,
    });
  });
});

describe("frame's hand check of the usual request", () => {
  const headers = {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
  };
  it.each([
    ["a call", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } }],
    ["a string id, no params", { jsonrpc: "2.0", id: "a", method: "ping" }],
    ["a fractional id", { jsonrpc: "2.0", id: 1.5, method: "ping" }],
    ["an id past the safe integers", { jsonrpc: "2.0", id: 2 ** 60, method: "ping" }],
    ["a null id", { jsonrpc: "2.0", id: null, method: "ping" }],
    ["another version", { jsonrpc: "1.0", id: 1, method: "ping" }],
    ["an extra key", { jsonrpc: "2.0", id: 1, method: "ping", extra: 1 }],
    ["params that are a list", { jsonrpc: "2.0", id: 1, method: "ping", params: [] }],
    ["params with _meta", { jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: 1 } }],
    ["a method that is a number", { jsonrpc: "2.0", id: 1, method: 7 }],
    ["a notification", { jsonrpc: "2.0", method: "notifications/initialized" }],
  ])("%s: accepted exactly when the SDK's schema accepts it", (_name, message) => {
    const framed = frame(headers, message);
    const accepted = JSONRPCMessageSchema.safeParse(message).success;
    expect(Array.isArray(framed)).toBe(accepted);
    if (Array.isArray(framed)) expect(framed[0]).toEqual(message);
  });
});

describe("the exchange connected to its server", () => {
  const tools = { list: { tools: [] }, call: () => undefined } as unknown as McpTools;

  it("hands requests to the server's request handling, unsorted again; the server answers each", async () => {
    const exchange = await connectExchange(tools);
    const sort = exchange.onmessage;
    let sorted = 0;
    exchange.onmessage = (message, extra) => {
      sorted++;
      sort?.(message, extra);
    };
    expect(await exchange.request(request(1, "ping"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {},
    });
    expect(await exchange.request(request(2, "no/such"))).toMatchObject({
      id: 2,
      error: { code: -32601 },
    });
    expect(await exchange.request(request(3, "tools/call"))).toMatchObject({
      id: 3,
      error: { code: -32602 },
    });
    expect(await exchange.request(request(4, "tools/call", { name: "x" }))).toMatchObject({
      id: 4,
      error: { code: -32602, message: expect.stringContaining("Unknown tool: x") },
    });
    expect(sorted).toBe(0);
    // Notifications still go through the SDK's sorting.
    exchange.notify({ jsonrpc: "2.0", method: "notifications/initialized" } as JSONRPCMessage);
    expect(sorted).toBe(1);
  });
});
