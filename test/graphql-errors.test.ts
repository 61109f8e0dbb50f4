/**
 * One error dialect on `/graphql` (API.md §4, docs/errors.md): once the key is accepted,
 * every answer is a GraphQL response `{"errors":[{message, extensions:{code}}]}`, also for
 * requests refused before GraphQL runs, with a 4xx status for a malformed request, and no
 * internal error text. The access layer's 401 keeps `{"detail"}`.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH, testApp } from "./helpers.js";

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const TYPENAME = encodeURIComponent("{ __typename }");
const JSON_TYPE = { "content-type": "application/json" };

interface Refusal {
  why: string;
  method?: "GET" | "POST";
  url?: string;
  headers?: Record<string, string>;
  payload?: string;
  status: number;
  code: string;
  /** Part of the message: what the client must fix. */
  says: string;
}

const REFUSALS: Refusal[] = [
  // Item 1: these were 500 INTERNAL_SERVER_ERROR.
  {
    why: "GET with variables that are not JSON",
    url: `/graphql?query=${TYPENAME}&variables=%7Bnope`,
    status: 400,
    code: "BAD_REQUEST",
    says: '"variables" query parameter is not valid JSON',
  },
  {
    why: "GET with variables=nope",
    url: `/graphql?query=${TYPENAME}&variables=nope`,
    status: 400,
    code: "BAD_REQUEST",
    says: '"variables" query parameter is not valid JSON',
  },
  {
    why: "GET with extensions that are not JSON",
    url: `/graphql?query=${TYPENAME}&extensions=%7Bnope`,
    status: 400,
    code: "BAD_REQUEST",
    says: '"extensions" query parameter is not valid JSON',
  },
  {
    why: "GET with variables that are JSON but not an object",
    url: `/graphql?query=${TYPENAME}&variables=5`,
    status: 400,
    code: "BAD_REQUEST",
    says: '"variables"',
  },
  {
    why: "GET whose query is not valid percent-encoded UTF-8",
    url: "/graphql?query=%7B%20__typename%20%ED%A0%80%7D",
    status: 400,
    code: "BAD_REQUEST",
    says: '"query" query parameter is not valid percent-encoded UTF-8',
  },
  {
    why: "GET without a query",
    url: "/graphql",
    headers: { accept: "application/json" },
    status: 400,
    code: "BAD_REQUEST",
    says: 'no "query"',
  },
  // Item 2: this 415 had no body.
  {
    why: "a text/plain body",
    method: "POST",
    headers: { "content-type": "text/plain" },
    payload: '{"query":"{ __typename }"}',
    status: 415,
    code: "UNSUPPORTED_MEDIA_TYPE",
    says: "application/json",
  },
  {
    why: "a form body",
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: "query=%7B__typename%7D",
    status: 415,
    code: "UNSUPPORTED_MEDIA_TYPE",
    says: "application/json",
  },
  {
    why: "a body without a content type",
    method: "POST",
    headers: {},
    payload: '{"query":"{ __typename }"}',
    status: 415,
    code: "UNSUPPORTED_MEDIA_TYPE",
    says: "application/json",
  },
  {
    why: "an Accept nothing here answers",
    method: "POST",
    headers: { ...JSON_TYPE, accept: "application/xml" },
    payload: '{"query":"{ __typename }"}',
    status: 406,
    code: "NOT_ACCEPTABLE",
    says: "application/json",
  },
  // Item 3: these answered {"detail"}, or leaked a SyntaxError as originalError.
  {
    why: "an empty JSON body",
    method: "POST",
    headers: JSON_TYPE,
    payload: "",
    status: 400,
    code: "BAD_REQUEST",
    says: "empty",
  },
  {
    why: "invalid JSON",
    method: "POST",
    headers: JSON_TYPE,
    payload: "{abc",
    status: 400,
    code: "BAD_REQUEST",
    says: "not valid JSON",
  },
  {
    why: "{}",
    method: "POST",
    headers: JSON_TYPE,
    payload: "{}",
    status: 400,
    code: "BAD_REQUEST",
    says: 'no "query"',
  },
  {
    why: "null",
    method: "POST",
    headers: JSON_TYPE,
    payload: "null",
    status: 400,
    code: "BAD_REQUEST",
    says: "must be a JSON object",
  },
  {
    why: "a JSON number",
    method: "POST",
    headers: JSON_TYPE,
    payload: "5",
    status: 400,
    code: "BAD_REQUEST",
    says: "must be a JSON object",
  },
  {
    why: "an array (no batching)",
    method: "POST",
    headers: JSON_TYPE,
    payload: '[{"query":"{ __typename }"}]',
    status: 400,
    code: "BAD_REQUEST",
    says: "must be a JSON object",
  },
  {
    // Valid JSON: the key is an unexpected parameter like any other, not "invalid JSON".
    why: "a __proto__ key",
    method: "POST",
    headers: JSON_TYPE,
    payload: '{"query":"{ __typename }","__proto__":{"query":"{ x }"}}',
    status: 400,
    code: "BAD_REQUEST",
    says: 'Unexpected parameter "__proto__"',
  },
  {
    why: "a body over the 1 MiB limit",
    method: "POST",
    headers: JSON_TYPE,
    payload: `{"query":"${" ".repeat(1024 * 1024)}"}`,
    status: 413,
    code: "PAYLOAD_TOO_LARGE",
    says: "larger than 1048576 bytes",
  },
  {
    why: "too many operation fields",
    method: "POST",
    headers: JSON_TYPE,
    payload: JSON.stringify({
      query: `{ math { ${Array.from({ length: 101 }, (_, i) => `f${i}: sum(numbers: ["1"]) { count }`).join(" ")} } }`,
    }),
    status: 400,
    code: "LIMIT_EXCEEDED",
    says: "Too many operation fields",
  },
  {
    why: "an empty application/graphql body",
    method: "POST",
    headers: { "content-type": "application/graphql" },
    payload: "",
    status: 400,
    code: "BAD_REQUEST",
    says: 'no "query"',
  },
];

describe("every refusal of /graphql past the key is a GraphQL error response", () => {
  it.each(REFUSALS.map((r) => [r.why, r] as const))("%s", async (_why, refusal) => {
    const response = await app.inject({
      method: refusal.method ?? "GET",
      url: refusal.url ?? "/graphql",
      headers: { ...AUTH, ...refusal.headers },
      ...(refusal.payload !== undefined ? { payload: refusal.payload } : {}),
    });
    expect(response.statusCode, response.body).toBe(refusal.status);
    expect(response.headers["content-type"]).toMatch(/^application\/json; charset=utf-8$/);
    const body = response.json() as {
      errors: { message: string; extensions: { code: string } }[];
      detail?: unknown;
    };
    expect(Object.keys(body)).toEqual(["errors"]);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]?.extensions.code).toBe(refusal.code);
    expect(body.errors[0]?.message).toContain(refusal.says);
    // No internal error text: no originalError, no parser exception, no stack.
    expect(response.body).not.toMatch(
      /originalError|SyntaxError|Unexpected token|\bat .+\.(?:ts|js):\d+/,
    );
  });

  it("the access layer's 401 keeps the service-wide {detail} shape", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/graphql",
      headers: JSON_TYPE,
      payload: "{abc",
    });
    expect(response.statusCode).toBe(401);
    expect(Object.keys(response.json())).toEqual(["detail"]);
  });

  it("a well-formed request answered as application/json is a 200, errors and all", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/graphql",
      headers: { ...AUTH, ...JSON_TYPE },
      payload: JSON.stringify({ query: "{ math { nope } }" }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });
});

describe("strings GraphQL takes are well-formed Unicode (item 4)", () => {
  it("a lone surrogate in a string variable is BAD_USER_INPUT at that argument, never hashed as U+FFFD", async () => {
    const query = "query ($t: String!) { crypto { checksumMd5(text: $t) { digest } } }";
    const response = await app.inject({
      method: "POST",
      url: "/graphql",
      headers: { ...AUTH, ...JSON_TYPE },
      payload: JSON.stringify({ query, variables: { t: "\ud800" } }),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.data.crypto.checksumMd5).toBeNull();
    expect(body.errors[0].extensions).toEqual({
      code: "BAD_USER_INPUT",
      detail: [
        {
          loc: ["args", "text"],
          msg: expect.stringContaining("lone surrogate (U+D800 at index 0)"),
          type: "value_error",
        },
      ],
    });
  });

  it("a lone surrogate escape in the document itself is a syntax error", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/graphql",
      headers: { ...AUTH, ...JSON_TYPE },
      payload: JSON.stringify({ query: '{ crypto { checksumMd5(text: "\\uD800") { digest } } }' }),
    });
    expect(response.json().errors[0].extensions.code).toBe("GRAPHQL_PARSE_FAILED");
  });
});
