import { createServer, type Server } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RequestLog } from "../http/observability.js";
import { loadOperations } from "../registry/loader.js";
import { restRoutes } from "./routes.js";
import { createRestShortcut, type RestShortcutOptions } from "./shortcut.js";

// The comparison with fastify's answers is test/rest-shortcut.test.ts; this is its guard.
describe("a fault inside the shortcut", () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  async function serve(overrides: Partial<RestShortcutOptions>) {
    const operations = await loadOperations();
    const logger = { error: vi.fn() } as unknown as FastifyBaseLogger;
    const shortcut = createRestShortcut({
      routes: restRoutes(operations.filter((op) => op.area === "math" && op.name === "sum")),
      passingKeyId: () => "key-id",
      admission: { idle: () => true, take: () => true, fits: () => true, handOver: () => {} },
      count: () => {},
      requestLog: { answered: () => {} } as unknown as RequestLog,
      logger,
      open: () => true,
      ...overrides,
    });
    server = createServer((request, response) => {
      if (!shortcut(request, response)) response.end("fastify's answer");
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const answer = await fetch(`http://127.0.0.1:${port}/v1/math/sum?numbers=1,2`);
    return { status: answer.status, body: await answer.text(), logged: vi.mocked(logger.error) };
  }

  it("before the answer: logged, and the request goes on to fastify", async () => {
    const { body, logged } = await serve({
      passingKeyId: () => {
        throw new Error("boom");
      },
    });
    expect(body).toBe("fastify's answer");
    expect(logged).toHaveBeenCalledOnce();
    expect(logged.mock.calls[0]?.[0]).toMatchObject({ path: "/v1/math/sum" });
  });

  it("after the answer (its bookkeeping): logged, and the answer stands", async () => {
    const { status, body, logged } = await serve({
      requestLog: {
        answered: () => {
          throw new Error("boom");
        },
      } as unknown as RequestLog,
    });
    expect(status).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ decimal: "3", count: 2 });
    expect(logged).toHaveBeenCalledOnce();
  });
});
