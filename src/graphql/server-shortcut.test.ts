import { createServer, request as httpRequest, type Server } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RequestLog } from "../http/observability.js";
import type { GraphqlResult, Pipeline } from "./pipeline.js";
import { createGraphqlShortcut, type GraphqlShortcutOptions } from "./server-shortcut.js";

const ANSWERED: GraphqlResult = { data: { ok: true }, stringify: JSON.stringify };
const BODY = JSON.stringify({ query: "{ ok }" });

// The comparison with fastify's answers is test/graphql-server-shortcut.test.ts; this is
// its guard against faults and late results.
describe("the GraphQL server shortcut, on its own", () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  /** The shortcut with stand-ins for everything around it, and `overrides`. */
  function shortcutWith(overrides: Partial<GraphqlShortcutOptions>) {
    const logger = { error: vi.fn() } as unknown as FastifyBaseLogger;
    const fits = vi.fn(() => true);
    const shortcut = createGraphqlShortcut({
      path: "/graphql",
      pipeline: { run: () => ANSWERED, textProblem: () => undefined } as unknown as Pipeline,
      passingKeyId: () => "key-id",
      admission: { idle: () => true, take: () => true, fits, handOver: () => {} },
      requestLog: { answered: () => {} } as unknown as RequestLog,
      logger,
      open: () => true,
      maxBodyBytes: 8000,
      ...overrides,
    });
    return { shortcut, logger, fits };
  }

  async function serve(overrides: Partial<GraphqlShortcutOptions>, body = BODY) {
    const { shortcut, logger, fits } = shortcutWith(overrides);
    const fastify = (_request: unknown, response: { end(text: string): void }) =>
      response.end("fastify's answer");
    server = createServer((request, response) => {
      if (!shortcut(request, response, fastify)) fastify(request, response);
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const answer = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }).then(
      async (response) => ({ status: response.status, text: await response.text() }),
      (error: unknown) => ({ status: 0, text: String(error) }),
    );
    return { ...answer, logged: vi.mocked(logger.error), fits };
  }

  it("answers what the pipeline ran", async () => {
    const { status, text } = await serve({});
    expect(status).toBe(200);
    expect(text).toBe('{"data":{"ok":true}}');
  });

  it("hands a body it cannot take to fastify", async () => {
    const { text, logged } = await serve({}, "{not json");
    expect(text).toBe("fastify's answer");
    expect(logged).not.toHaveBeenCalled();
  });

  it("a fault before the pipeline answered: logged, and fastify answers", async () => {
    const { text, logged } = await serve({
      pipeline: {
        run: () => {
          throw new Error("boom");
        },
      } as unknown as Pipeline,
    });
    expect(text).toBe("fastify's answer");
    expect(logged).toHaveBeenCalledOnce();
    expect(logged.mock.calls[0]?.[0]).toMatchObject({ path: "/graphql" });
  });

  it("a fault while answering: logged, and the connection closes (never run twice)", async () => {
    const { status, logged } = await serve({
      requestLog: {
        answered: () => {
          throw new Error("boom");
        },
      } as unknown as RequestLog,
    });
    // The answer was written before its bookkeeping failed.
    expect(status).toBe(200);
    expect(logged).toHaveBeenCalledOnce();
  });

  it("past the bound on large answers: no answer, the connection closes", async () => {
    const fits = vi.fn(() => false);
    const { status, text } = await serve({
      admission: { idle: () => true, take: () => true, fits, handOver: () => {} },
    });
    expect(fits).toHaveBeenCalledOnce();
    expect(status).toBe(0);
    expect(text).toMatch(/fetch failed|socket|terminated/i);
  });

  it("a result that arrives after its client left is neither written nor counted", async () => {
    let settle: (result: GraphqlResult) => void = () => {};
    const late = new Promise<GraphqlResult>((resolve) => {
      settle = resolve;
    });
    const { shortcut, fits } = shortcutWith({
      pipeline: { run: () => late } as unknown as Pipeline,
    });
    let closed: () => void = () => {};
    const answerClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const listening = createServer((request, response) => {
      response.on("close", () => closed());
      shortcut(request, response, () => {});
    });
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
    const { port } = listening.address() as { port: number };
    const client = httpRequest({
      host: "127.0.0.1",
      port,
      path: "/graphql",
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    client.on("error", () => {});
    client.end(BODY);
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.destroy();
    await answerClosed;
    settle(ANSWERED);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fits).not.toHaveBeenCalled();
  });
});
