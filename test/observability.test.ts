/**
 * The per-request observability path: request ids, the request line (the JSON pino would
 * write, assembled by hand). HTTP metrics are tested beside their module
 * (src/observability/metrics.test.ts).
 */
import type { IncomingMessage } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { keyIdOf } from "../src/http/auth.js";
import { NOT_A_PATH, requestIdOf, targetPath } from "../src/http/observability.js";
import { keptReply, MAX_KEPT_REQUEST_BYTES } from "../src/observability/idle-collection.js";
import { allOperations, TEST_KEY } from "./helpers.js";

const AUTH = { "x-api-key": TEST_KEY };

async function loggedApp(lines: string[]) {
  return buildApp({
    config: loadConfig({ API_KEYS: TEST_KEY }),
    operations: await allOperations(),
    logger: { level: "info", stream: { write: (line: string) => lines.push(line) } },
  });
}

describe("the path of a request target", () => {
  it.each([
    ["/v1/math/sum?numbers=1,2", "/v1/math/sum"],
    ["*", "*"],
    // Absolute form: the client's scheme, authority (credentials included) and query go.
    ["http://evil.example/v1/math/sum?numbers=1,2", "/v1/math/sum"],
    ["HTTPS://user:secret@evil.example:8443/health", "/health"],
    ["http://evil.example", "/"],
    ["http://evil.example?x=/v1/math/sum", "/"],
    ["ftp://evil.example/v1", "/v1"],
    // CONNECT's authority form names no path.
    ["evil.example:443", NOT_A_PATH],
  ])("%s is %s", (target, path) => {
    expect(targetPath(target)).toBe(path);
  });
});

describe("request ids", () => {
  const bare = (id?: string) =>
    ({ headers: id === undefined ? {} : { "x-request-id": id } }) as IncomingMessage;

  it("generated ones are UUID-shaped, distinct, and share this process's prefix", () => {
    const ids = Array.from({ length: 1000 }, () => requestIdOf(bare()));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids.map((id) => id.slice(0, 24))).size).toBe(1);
  });

  it.each([
    ["req-42.abc", "req-42.abc"],
    ["a/b:c@d+e=f_g", "a/b:c@d+e=f_g"],
    ["has space", undefined],
    ['quote"', undefined],
    ["x".repeat(129), undefined],
    ["", undefined],
  ])("offered %j → %j (else a generated one)", (offered, kept) => {
    const id = requestIdOf(bare(offered));
    if (kept === undefined) expect(id).not.toBe(offered);
    else expect(id).toBe(kept);
  });
});

describe("the request line", () => {
  it.each([
    ["a calculation", "/v1/math/sum?numbers=1,2", AUTH, 200, "/v1/math/sum", "/v1/math/sum"],
    ["a refused key", "/v1/math/sum?numbers=1", {}, 401, "/v1/math/sum", "/v1/math/sum"],
    ["an unknown path (escaped)", "/v1/%22odd%22", AUTH, 404, "(unmatched)", "/v1/%22odd%22"],
    ["a service endpoint", "/health", {}, 200, "/health", "/health"],
  ])(
    "%s: one line, the JSON pino writes, without the query",
    async (_what, url, headers, status, route, path) => {
      const lines: string[] = [];
      const app = await loggedApp(lines);
      try {
        const response = await app.inject({
          url,
          headers: { ...headers, "x-request-id": "trace-7" },
        });
        expect(response.statusCode).toBe(status);
        const requests = lines.filter((line) => line.includes('"msg":"request"'));
        expect(requests).toHaveLength(1);
        const line = requests[0] as string;
        expect(line.endsWith("}\n")).toBe(true);
        const entry = JSON.parse(line);
        expect(entry).toEqual({
          level: 30,
          time: expect.any(Number),
          pid: process.pid,
          hostname: expect.any(String),
          requestId: "trace-7",
          method: "GET",
          route,
          path,
          status,
          durationMs: expect.any(Number),
          ...(status === 401 || route !== "/v1/math/sum" ? {} : { keyId: keyIdOf(TEST_KEY) }),
          remoteAddress: "127.0.0.1",
          msg: "request",
        });
        // The same fields in the same order as pino writes them for log.info(fields, "request").
        const reference: string[] = [];
        const logger = pino({ level: "info" }, { write: (l: string) => reference.push(l) });
        const { level: _l, time: _t, pid: _p, hostname: _h, msg: _m, ...fields } = entry;
        logger.info(fields, "request");
        expect(Object.keys(JSON.parse(reference[0] as string))).toEqual(Object.keys(entry));
      } finally {
        await app.close();
      }
    },
  );

  it("is not written above info", async () => {
    const lines: string[] = [];
    const app = await buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY }),
      operations: await allOperations(),
      logger: { level: "warn", stream: { write: (line: string) => lines.push(line) } },
    });
    await app.inject({ url: "/v1/math/sum?numbers=1", headers: AUTH });
    await app.close();
    expect(lines).toEqual([]);
  });
});

describe("request shapes kept through an idle collection", () => {
  it("keeps the last small request of each context, not a large one", async () => {
    const app = await loggedApp([]);
    const seen: FastifyRequest[] = [];
    app.addHook("onRequest", (request, _reply, done) => {
      seen.push(request);
      done();
    });
    await app.inject({ url: "/v1/math/sum?numbers=1,2", headers: AUTH });
    const [small] = seen;
    if (!small) throw new Error("no request seen");
    const kept = keptReply(small.constructor) as FastifyReply | undefined;
    expect(kept?.request).toBe(small);
    // A request past MAX_KEPT_REQUEST_BYTES leaves the small one kept.
    const long = `/v1/math/sum?numbers=${"1,".repeat(MAX_KEPT_REQUEST_BYTES / 2)}1`;
    expect((await app.inject({ url: long, headers: AUTH })).statusCode).toBe(200);
    expect(seen).toHaveLength(2);
    expect((keptReply(small.constructor) as FastifyReply | undefined)?.request).toBe(small);
    await app.close();
  });
});
