/**
 * Each private internal of internals.ts still does what the service relies on: an upgrade
 * of fastify, Node or V8 that moves one fails here, by name, rather than somewhere later.
 */
import { request as httpRequest, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { getHeapStatistics } from "node:v8";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { fullCollection, kReplyHeaders, kRouteContext, pendingResponse } from "./internals.js";

describe("fastify's symbols", () => {
  it("reach a request's route context (config, handler) and a reply's header object", async () => {
    const app = Fastify();
    let seen: { url?: unknown; handler?: unknown; headers?: unknown } = {};
    app.get("/route/:id", { config: { label: "x" } }, (request, reply) => {
      const context = (request as unknown as Record<symbol, Record<string, unknown>>)[
        kRouteContext
      ];
      const headers = (reply as unknown as Record<symbol, Record<string, string>>)[kReplyHeaders];
      if (headers) headers["x-set-whole"] = "yes";
      seen = {
        url: (context?.config as { url?: string } | undefined)?.url,
        handler: typeof context?.handler,
        headers: typeof headers,
      };
      return "ok";
    });
    const response = await app.inject({ url: "/route/7" });
    await app.close();
    expect(typeof kRouteContext).toBe("symbol");
    expect(seen).toEqual({ url: "/route/:id", handler: "function", headers: "object" });
    expect(response.headers["x-set-whole"]).toBe("yes");
  });
});

describe("Node's response owed on a socket", () => {
  it("is the socket's pending response while it is written, then none", async () => {
    const app = Fastify();
    let during: ServerResponse | null = null;
    let socket: Socket | undefined;
    app.get("/", (request, reply) => {
      socket = request.raw.socket;
      during = pendingResponse(socket);
      reply.send("ok");
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = app.server.address() as { port: number };
    await new Promise<void>((resolve, reject) => {
      httpRequest({ host: "127.0.0.1", port, path: "/", agent: false }, (response) => {
        response.resume();
        response.on("end", resolve);
      })
        .on("error", reject)
        .end();
    });
    const after = socket ? pendingResponse(socket) : undefined;
    await app.close();
    expect(during).not.toBeNull();
    expect((during as unknown as ServerResponse).constructor.name).toBe("ServerResponse");
    expect(after).toBeNull();
  });
});

describe("V8's full collection", () => {
  it("collects fully, without exposing gc on the global scope", () => {
    const collect = fullCollection();
    let garbage: number[][] | undefined = Array.from({ length: 300_000 }, (_, i) => [i]);
    const before = getHeapStatistics().used_heap_size;
    garbage = undefined;
    collect();
    expect(before - getHeapStatistics().used_heap_size).toBeGreaterThan(8 * 1024 * 1024);
    expect(garbage).toBeUndefined();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
