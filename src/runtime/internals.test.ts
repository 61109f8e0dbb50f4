/**
 * The private internals of fastify, pino and Node the service reads (internals.ts):
 * each is checked here for the shape the service relies on, so an upgrade that moves or
 * reshapes one fails this file, not a request in production.
 */
import { once } from "node:events";
import { createServer, request as httpRequest, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";
import Fastify from "fastify";
import pino from "pino";
import { describe, expect, it } from "vitest";
import {
  chindingsSym,
  fullCollection,
  kReplyHeaders,
  kRouteContext,
  owedResponse,
  pinoLevel,
  sdkRequestHandler,
  sdkRequestHandlers,
  streamSym,
  timeSym,
} from "./internals.js";

const MB = 1024 * 1024;

describe("fastify's symbols", () => {
  it("reach a request's route template and a reply's header object", async () => {
    const app = Fastify();
    let seen: { url?: string; headers?: unknown } = {};
    app.get("/v1/:area/things", (request, reply) => {
      const context = (request as unknown as Record<symbol, { config?: { url?: string } }>)[
        kRouteContext
      ];
      const headers = (reply as unknown as Record<symbol, Record<string, string>>)[kReplyHeaders];
      reply.header("x-probe", "1");
      seen = { url: context?.config?.url, headers: { ...headers } };
      // Replaced whole, as the answer headers are: what fastify then sends.
      (reply as unknown as Record<symbol, unknown>)[kReplyHeaders] = { "x-replaced": "yes" };
      return { ok: true };
    });
    const response = await app.inject({ url: "/v1/math/things" });
    expect(typeof kRouteContext).toBe("symbol");
    expect(seen).toEqual({ url: "/v1/:area/things", headers: { "x-probe": "1" } });
    expect(response.headers["x-replaced"]).toBe("yes");
    expect(response.headers["x-probe"]).toBeUndefined();
    await app.close();
  });

  it("give the not-found context's handler to an unmatched request", async () => {
    const app = Fastify();
    let handler: unknown;
    app.addHook("onRequest", (request, _reply, done) => {
      handler = (request as unknown as Record<symbol, { handler?: unknown }>)[kRouteContext]
        ?.handler;
      done();
    });
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: "Not Found" }));
    await app.inject({ url: "/nowhere" });
    expect(typeof handler).toBe("function");
    await app.close();
  });
});

describe("pino's symbols and level", () => {
  it("give the bindings, the clock, the stream and the numeric level the request line uses", () => {
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const internals = logger as unknown as Record<symbol, unknown>;
    expect(internals[chindingsSym]).toMatch(/^,"pid":\d+,"hostname":".*"$/);
    expect((internals[timeSym] as () => string)()).toMatch(/^,"time":\d+$/);
    (internals[streamSym] as { write(line: string): void }).write("raw\n");
    expect(lines).toEqual(["raw\n"]);
    expect(pinoLevel(logger)).toBe(30);
    expect(pinoLevel(pino({ level: "warn" }))).toBe(40);
  });
});

describe("Node's owed response", () => {
  it("is the response a socket is writing, and none once it has finished", async () => {
    const owed: (ServerResponse | undefined)[] = [];
    const server = createServer((request, response) => {
      owed.push(owedResponse(request.socket));
      owed.push(response);
      const socket = request.socket;
      // Node's own 'finish' listener detaches the socket; looked at after it.
      response.end("ok", () => setImmediate(() => owed.push(owedResponse(socket))));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      httpRequest({ host: "127.0.0.1", port, agent: false }, (response) => {
        response.resume();
        response.on("end", resolve);
      })
        .on("error", reject)
        .end();
    });
    await new Promise((resolve) => setImmediate(resolve));
    server.close();
    expect(owed).toHaveLength(3);
    expect(owed[0]).toBe(owed[1]);
    expect(owed[2]).toBeUndefined();
  });
});

describe("V8's full collection", () => {
  it("collects fully, without exposing gc on the global scope", () => {
    const collect = fullCollection();
    let garbage: number[][] | undefined = Array.from({ length: 300_000 }, (_, i) => [i]);
    const before = getHeapStatistics().used_heap_size;
    garbage = undefined;
    collect();
    expect(before - getHeapStatistics().used_heap_size).toBeGreaterThan(8 * MB);
    expect(garbage).toBeUndefined();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it("shrinks the young generation back when asked to (after start)", () => {
    const collect = fullCollection();
    const youngCommitted = () =>
      getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
    // Short-lived objects that survive a scavenge or two grow the young generation.
    const grow = () => {
      let keep: number[][] = [];
      for (let i = 0; i < 400_000; i++) {
        keep.push([i]);
        if (keep.length > 50_000) keep = [];
      }
      return keep.length;
    };
    grow();
    collect();
    const regular = youngCommitted();
    grow();
    collect(true);
    expect(youngCommitted()).toBeLessThan(regular);
  });
});

/** An SDK server connected to a transport that keeps what it is sent. */
async function connectedServer() {
  const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
  const server = new Server({ name: "t", version: "1" }, { capabilities: {} });
  const sent: unknown[] = [];
  await server.connect({
    start: async () => {},
    close: async () => {},
    send: async (message: unknown) => {
      sent.push(message);
    },
  });
  return { server, sent };
}

describe("the MCP SDK server's request handling", () => {
  it("answers a request handed to it past the message sorting", async () => {
    const { server, sent } = await connectedServer();
    const handle = sdkRequestHandler<{ jsonrpc: "2.0"; id: number; method: string }>(server);
    expect(handle).toBeTypeOf("function");
    handle?.({ jsonrpc: "2.0", id: 7, method: "ping" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual([{ jsonrpc: "2.0", id: 7, result: {} }]);
    expect(sdkRequestHandler({})).toBeUndefined();
  });

  it("keeps its request handlers by method, the ones its requests are answered by", async () => {
    const { server, sent } = await connectedServer();
    const handlers = sdkRequestHandlers(server);
    expect(handlers?.get("ping")).toBeTypeOf("function");
    handlers?.set("ping", () => ({ replaced: true }));
    sdkRequestHandler<{ jsonrpc: "2.0"; id: number; method: string }>(server)?.({
      jsonrpc: "2.0",
      id: 8,
      method: "ping",
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual([{ jsonrpc: "2.0", id: 8, result: { replaced: true } }]);
    expect(sdkRequestHandlers({})).toBeUndefined();
  });
});
