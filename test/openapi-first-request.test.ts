/** `/openapi.json` is made by its first request, not at the start, and kept. */
import { afterAll, describe, expect, it, vi } from "vitest";

const builds = vi.hoisted(() => ({ count: 0 }));
vi.mock("../src/openapi/document.js", async (original) => {
  const actual = await original<typeof import("../src/openapi/document.js")>();
  return {
    ...actual,
    buildOpenApiDocument: (...args: Parameters<typeof actual.buildOpenApiDocument>) => {
      builds.count++;
      return actual.buildOpenApiDocument(...args);
    },
  };
});

const { testApp } = await import("./helpers.js");
const app = await testApp();

afterAll(() => app.close());

describe("/openapi.json", () => {
  it("is built by its first request, once", async () => {
    await app.ready();
    expect(builds.count).toBe(0);
    const first = await app.inject({ url: "/openapi.json" });
    expect(first.statusCode).toBe(200);
    expect(JSON.parse(first.body).openapi).toMatch(/^3\.1/);
    const second = await app.inject({ url: "/openapi.json" });
    expect(second.body).toBe(first.body);
    expect(builds.count).toBe(1);
  });
});
