/**
 * JSON bodies nested deeper than MAX_JSON_DEPTH, or holding more than MAX_JSON_VALUES
 * values, are refused with a 400 before they are parsed, in each route's own error shape:
 * a 1 MiB body nested 500,000 deep once cost 215-350 ms and ~70 MB to parse, one of
 * 330,000 empty objects ~100 ms and ~25 MB (outside attack runs).
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from "../src/http/json-body.js";
import { AUTH, allOperations, TEST_KEY } from "./helpers.js";

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp({
    config: loadConfig({ API_KEYS: TEST_KEY }),
    operations: await allOperations(),
    logger: false,
  });
});
afterAll(() => app.close());

const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
const graphql = (variable: string) => `{"query":"{ __typename }","variables":{"x":${variable}}}`;
const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: "POST",
    url,
    headers: { ...AUTH, "content-type": "application/json", ...headers },
    payload,
  });

it.each([
  ["as deep as allowed (the body's own object is one level)", MAX_JSON_DEPTH - 2, 200],
  ["one level deeper than allowed", MAX_JSON_DEPTH - 1, 400],
  ["500,000 levels in 1 MiB", 500_000, 400],
])("GraphQL: a variable %s", async (_name, depth, status) => {
  const response = await post("/graphql", graphql(nested(depth)));
  expect(response.statusCode, response.body.slice(0, 200)).toBe(status);
  if (status === 400) {
    expect(response.json().errors[0].message).toMatch(/more than 64 levels deep/);
  }
});

it("MCP: a deep body is refused in the service's error shape", async () => {
  const response = await post(
    "/mcp",
    `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${nested(500_000)}}`,
    { accept: "application/json, text/event-stream" },
  );
  expect(response.statusCode).toBe(400);
  expect(response.json().detail).toMatch(/more than 64 levels deep/);
});

const empties = (count: number) => `[${"{},".repeat(count - 1)}{}]`;

// n empty objects in a list are 2n values (each `{` and each `,`); the body's own object,
// the comma before "variables" and the variables' object are 3 more.
it.each([
  ["as many values as allowed", (MAX_JSON_VALUES - 4) / 2, 200],
  ["one value more than allowed", (MAX_JSON_VALUES - 4) / 2 + 1, 400],
  ["330,000 empty objects in 1 MiB", 330_000, 400],
])("GraphQL: a body with %s", async (_name, count, status) => {
  const response = await post("/graphql", graphql(empties(count)));
  expect(response.statusCode, response.body.slice(0, 200)).toBe(status);
  if (status === 400) {
    expect(response.json().errors[0].message).toMatch(/more than 20000 values/);
  }
});

it("MCP and REST-shaped routes: a body of too many values is refused as {detail}", async () => {
  const response = await post(
    "/mcp",
    `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":${empties(330_000)}}}`,
    { accept: "application/json, text/event-stream" },
  );
  expect(response.statusCode).toBe(400);
  expect(response.json().detail).toMatch(/more than 20000 values/);
});

it.each([
  [
    "variables",
    `{"x":${nested(MAX_JSON_DEPTH + 1)}}`,
    /"variables" query parameter nests .* more than 64 levels/,
  ],
  [
    "extensions",
    `{"x":${empties(10_001)}}`,
    /"extensions" query parameter holds more than 20000 values/,
  ],
])(
  "GraphQL GET: a %s parameter past the bounds is refused before it is parsed",
  async (name, json, message) => {
    const response = await app.inject({
      method: "GET",
      url: `/graphql?query=${encodeURIComponent("{ __typename }")}&${name}=${encodeURIComponent(json)}`,
      headers: AUTH,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toMatch(message);
  },
);
