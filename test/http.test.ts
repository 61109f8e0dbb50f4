/** The HTTP surface outside the operations: errors, service endpoints, docs. */
import { connect } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { pathOf } from "../src/core/path.js";
import { brokenOperation, liarOperation } from "./fixtures/faulty-operations.js";
import { isOperationPath } from "./fuzz/generators.js";
import { AUTH, allOperations, TEST_KEY, testApp } from "./helpers.js";

/** Sends `request` on a raw socket to a listening copy of the app; resolves what came back. */
async function rawRequest(request: string): Promise<string> {
  const served = await testApp();
  await served.listen({ host: "127.0.0.1", port: 0 });
  const { port } = served.server.address() as { port: number };
  try {
    return await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(request));
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error("no answer within 5 s"));
      }, 5000);
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("error", reject);
      socket.on("close", () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString("latin1"));
      });
    });
  } finally {
    await served.close();
  }
}

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

describe("errors", () => {
  it.each([
    ["GET", "/nope", 404, { detail: "Not Found" }],
    ["GET", "/v1/math/nope", 404, { detail: "Not Found" }],
    ["GET", "/v1/math/sum/", 404, { detail: "Not Found" }],
    ["POST", "/v1/math/sum", 405, { detail: "Method Not Allowed" }],
    ["DELETE", "/v1/math/sum", 405, { detail: "Method Not Allowed" }],
    ["POST", "/health", 405, { detail: "Method Not Allowed" }],
  ] as const)("%s %s → %i", async (method, url, status, body) => {
    const response = await app.inject({ method, url, headers: AUTH });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(body);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    if (status === 405) expect(response.headers.allow).toBe("GET, HEAD");
  });

  it("an unexpected fault is a bare 500", async () => {
    const faulty = await buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY }),
      operations: [brokenOperation],
      logger: false,
    });
    const response = await faulty.inject({ url: "/v1/test/broken", headers: AUTH });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: "Internal Server Error" });
    await faulty.close();
  });

  it("a handler that breaks its own output schema is a 500, not a wrong answer", async () => {
    const faulty = await buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY }),
      operations: [liarOperation],
      logger: false,
    });
    const response = await faulty.inject({ url: "/v1/test/liar", headers: AUTH });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: "Internal Server Error" });
    await faulty.close();
  });

  it("an HTTP/1.1 request without Host is a JSON 400, and the connection is closed", async () => {
    const answer = await rawRequest(`GET /health HTTP/1.1\r\n\r\n`);
    const [head = "", body] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    expect(head).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(body ?? "")).toEqual({
      detail: "Bad Request: an HTTP/1.1 request must carry a Host header",
    });
  });

  it("an HTTP/1.0 request needs no Host", async () => {
    const answer = await rawRequest(`GET /health HTTP/1.0\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("an oversized URL is refused with 431 or 414, not served", async () => {
    const response = await app.inject({
      url: `/v1/math/sum?numbers=${"1,".repeat(200_000)}1`,
      headers: AUTH,
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });
});

/**
 * Routes are revealed before authentication, deliberately: a wrong method on an operation's
 * path is a 405 with `Allow` with or without a key (and an unknown path a 404), because
 * `/openapi.json` lists every path to anyone. The answer reveals no more than that document.
 */
describe("before authentication, paths are as public as the OpenAPI document", () => {
  it("a wrong method without a key is a 405 on exactly the documented paths, a 404 elsewhere", async () => {
    const doc = (await app.inject({ url: "/openapi.json" })).json() as { paths: object };
    // The operations' paths; the admin API's are documented too, and unknown here (no ADMIN_TOKEN).
    const documented = Object.keys(doc.paths).filter(isOperationPath).sort();
    const operations = await allOperations();
    expect(operations.map(pathOf).sort()).toEqual(documented);
    for (const path of documented) {
      const response = await app.inject({ method: "PUT", url: path });
      expect(response.statusCode, path).toBe(405);
      expect(response.headers.allow).toBe("GET, HEAD");
      expect(response.json()).toEqual({ detail: "Method Not Allowed" });
      expect((await app.inject({ url: path })).statusCode, path).toBe(401);
    }
    for (const path of ["/v1/math/nope", "/v1/math", "/v2/math/sum", "/admin", "/admin/v1/keys"]) {
      const response = await app.inject({ method: "PUT", url: path });
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toEqual({ detail: "Not Found" });
    }
  });
});

describe("service endpoints", () => {
  it("GET /health", async () => {
    const response = await app.inject({ url: "/health" });
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("GET /openapi.json is OpenAPI 3.1 with every operation, the key scheme, 401 and 422", async () => {
    const doc = (await app.inject({ url: "/openapi.json" })).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.ApiKeyAuth).toEqual(
      expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" }),
    );
    type OperationObject = {
      summary: string;
      responses: Record<string, { content?: Record<string, { examples?: unknown }> }>;
    };
    for (const [path, item] of Object.entries<{ get: OperationObject }>(doc.paths)) {
      if (!isOperationPath(path)) continue;
      expect(Object.keys(item.get.responses)).toEqual(
        expect.arrayContaining(["200", "401", "422"]),
      );
      expect(item.get.summary).toBeTruthy();
      expect(item.get.responses["200"]?.content?.["application/json"]?.examples).toBeTruthy();
    }
  });

  it("GET /docs serves the reference and its assets locally", async () => {
    const page = await app.inject({ url: "/docs" });
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset.startsWith("/docs/assets/"), asset).toBe(true);
      expect((await app.inject({ url: asset })).statusCode, asset).toBe(200);
    }
    const init = await app.inject({ url: "/docs/assets/init.js" });
    expect(init.body).toContain("/openapi.json");
    expect((await app.inject({ url: "/docs/assets/nope.js" })).statusCode).toBe(404);
  });
});
