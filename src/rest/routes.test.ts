import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { AUTH, allOperations, queryOf, testApp, urlOf } from "../../test/helpers.js";
import { routeOf } from "../core/path.js";
import { registerRestRoutes, restRoutes } from "./routes.js";

describe("REST routes", () => {
  it("one route per operation answers GET and HEAD: no second route for HEAD", async () => {
    const operations = await allOperations();
    const app = Fastify();
    const registered: { url: string; method: string | string[] }[] = [];
    app.addHook("onRoute", (route) => {
      registered.push({ url: route.url, method: route.method });
    });
    const open = () => (_request: unknown, _reply: unknown, done: () => void) => done();
    registerRestRoutes(app, restRoutes(operations), open);
    await app.ready();
    expect(registered).toHaveLength(operations.length);
    for (const operation of operations) {
      expect(registered).toContainEqual({
        url: `/v1${routeOf(operation)}`,
        method: ["GET", "HEAD"],
      });
    }
    await app.close();
  });

  it("HEAD answers GET's status and headers, without the body", async () => {
    const app = await testApp();
    const [operation] = await allOperations();
    if (!operation) throw new Error("no operation");
    const url = urlOf(operation, queryOf(operation.examples[0]?.input ?? {}));
    const get = await app.inject({ method: "GET", url, headers: AUTH });
    const head = await app.inject({ method: "HEAD", url, headers: AUTH });
    expect(head.statusCode).toBe(get.statusCode);
    expect(head.body).toBe("");
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    expect(head.headers["content-type"]).toBe(get.headers["content-type"]);
    // A HEAD is a request like any other: behind the key.
    expect((await app.inject({ method: "HEAD", url })).statusCode).toBe(401);
    await app.close();
  });
});
