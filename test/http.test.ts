/** The HTTP surface outside the operations: errors, service endpoints, docs. */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { brokenOperation, liarOperation } from "./fixtures/faulty-operations.js";
import { AUTH, TEST_KEY, testApp } from "./helpers.js";

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

  it("an oversized URL is refused with 431 or 414, not served", async () => {
    const response = await app.inject({
      url: `/v1/math/sum?numbers=${"1,".repeat(200_000)}1`,
      headers: AUTH,
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
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
      expect(path).toMatch(/^\/v1\//);
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
