/**
 * The GraphQL-over-HTTP spec audits of `graphql-http` against /graphql, one test per
 * audit: every one must answer ok (a warning fails too), with quotas on as shipped.
 */
import type { FastifyInstance } from "fastify";
import { serverAudits } from "graphql-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_KEY, testApp } from "./helpers.js";

let app: FastifyInstance;
let url = "";

/** The audits' own fetch, with the key added: they know nothing of API keys. */
function keyed(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("x-api-key", TEST_KEY);
  return fetch(input, { ...init, headers });
}

beforeAll(async () => {
  app = await testApp({ RATE_LIMIT: "100000" });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  url = `http://127.0.0.1:${address.port}/graphql`;
});

afterAll(() => app.close());

const audits = serverAudits({ url: () => url, fetchFn: keyed });

describe("GraphQL over HTTP audits", () => {
  it("has the audits to run", () => {
    expect(audits.length).toBeGreaterThan(50);
  });

  it.each(audits.map((audit) => [`${audit.id} ${audit.name}`, audit] as const))(
    "%s",
    async (_, audit) => {
      const result = await audit.fn();
      expect({ status: result.status, reason: "reason" in result ? result.reason : "" }).toEqual({
        status: "ok",
        reason: "",
      });
    },
  );
});
