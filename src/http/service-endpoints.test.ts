import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH, testApp } from "../../test/helpers.js";
import { POINTERS } from "./service-endpoints.js";

describe("GET /", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app.close());

  it("points a client, without a key, to every surface as JSON", async () => {
    const response = await app.inject({ url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.headers.vary).toMatch(/accept/i);
    expect(response.json()).toEqual(POINTERS);
  });

  it("gives a browser the same pointers as links", async () => {
    const response = await app.inject({ url: "/", headers: { accept: "text/html,*/*;q=0.8" } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    for (const path of [POINTERS.docs, POINTERS.graphql, POINTERS.openapi]) {
      expect(response.body).toContain(`href="${path}"`);
    }
    expect(response.headers["content-security-policy"]).toContain("default-src 'none'");
  });

  it("points only to paths that answer", async () => {
    const html = { accept: "text/html" };
    for (const [path, headers, status] of [
      [POINTERS.docs, {}, 200],
      [POINTERS.graphql, html, 200],
      [POINTERS.openapi, {}, 200],
      [POINTERS.health, {}, 200],
      [POINTERS.try, AUTH, 200],
    ] as const) {
      const response = await app.inject({ url: path, headers });
      expect(response.statusCode, path).toBe(status);
    }
  });
});
