/**
 * GraphQL request limits: every refusal comes before anything runs (a counting fixture
 * tells), with HTTP 400 and `extensions.code: "LIMIT_EXCEEDED"`.
 */
import type { FastifyInstance } from "fastify";
import { getIntrospectionQuery, parse } from "graphql";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { countTokens, DEFAULT_GRAPHQL_LIMITS, measureDocument } from "../src/graphql/limits.js";
import { defineOperation, z } from "../src/kit/index.js";
import { countingOperation } from "./fixtures/faulty-operations.js";
import { graphql } from "./graphql-helpers.js";
import { AUTH, allOperations, TEST_KEY } from "./helpers.js";

const counter = countingOperation();

/** An output nested six objects deep: a full selection is 9 levels deep. */
const leaf = z.object({ value: z.int() });
const deep = defineOperation({
  area: "test",
  name: "deep",
  summary: "Nested output",
  description: "A fixture whose output nests objects six levels deep.",
  input: z.object({}),
  output: z.object({
    a: z.object({ b: z.object({ c: z.object({ d: z.object({ e: z.object({ f: leaf }) }) }) }) }),
  }),
  examples: [
    {
      title: "deep",
      input: {},
      output: { a: { b: { c: { d: { e: { f: { value: 1 } } } } } } },
    },
  ],
  handler: () => {
    counter.record();
    return { a: { b: { c: { d: { e: { f: { value: 1 } } } } } } };
  },
});

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp({
    config: loadConfig({ API_KEYS: TEST_KEY }),
    operations: [counter.operation, deep],
    logger: false,
  });
});
afterAll(() => app.close());
beforeEach(() => {
  counter.reset();
});

const aliased = (count: number) =>
  Array.from({ length: count }, (_, i) => `c${i}: count { runs }`).join(" ");

async function expectRefused(query: string, limit: string, variables?: Record<string, unknown>) {
  const response = await graphql(app, query, variables);
  expect(response.statusCode, response.body).toBe(400);
  expect(response.parsed.data).toBeUndefined();
  expect(response.parsed.errors?.[0]?.extensions).toEqual(
    expect.objectContaining({ code: "LIMIT_EXCEEDED", limit }),
  );
  expect(counter.runs()).toBe(0);
  return response.parsed.errors?.[0]?.message ?? "";
}

describe("operation fields", () => {
  it("100 aliased fields run", async () => {
    const response = await graphql(app, `{ test { ${aliased(100)} } }`);
    expect(response.statusCode).toBe(200);
    expect(counter.runs()).toBe(100);
  });

  it("101 aliased fields are refused, with the numbers in the message", async () => {
    const message = await expectRefused(`{ test { ${aliased(101)} } }`, "operationFields");
    expect(message).toMatch(/101.*at most 100/);
  });

  it("fields count across area fields and aliases of the area", async () => {
    await expectRefused(
      `{ a: test { ${aliased(60)} } b: test { ${aliased(41)} } }`,
      "operationFields",
    );
  });

  it("fields in fragments count each time a fragment is spread", async () => {
    await expectRefused(
      `{ a: test { ...F } b: test { ...F } c: test { ... on TestOperations { ...F } } }
       fragment F on TestOperations { ${aliased(34)} }`,
      "operationFields",
    );
  });

  it("a fragment spread on Query counts too", async () => {
    await expectRefused(
      `{ ...Q ...Q } fragment Q on Query { test { ${aliased(51)} } }`,
      "operationFields",
    );
  });

  it.each([
    ["A", 200, 60],
    ["B", 400, 0],
  ])("only the operation that runs counts: operationName %s", async (name, status, runs) => {
    // A: 60 fields, B: 101; together 161. A runs; B alone is over the limit.
    const response = await app.inject({
      method: "POST",
      url: "/graphql",
      headers: { ...AUTH, "content-type": "application/json" },
      payload: {
        query: `query A { test { ${aliased(60)} } } query B { test { ${aliased(101)} } }`,
        operationName: name,
      },
    });
    expect(response.statusCode, response.body).toBe(status);
    expect(counter.runs()).toBe(runs);
  });

  it("fields of a GET request count the same", async () => {
    const response = await app.inject({
      url: `/graphql?query=${encodeURIComponent(`{ test { ${aliased(101)} } }`)}`,
      headers: AUTH,
    });
    expect(response.statusCode).toBe(400);
    expect(counter.runs()).toBe(0);
  });
});

describe("selected fields", () => {
  /** 100 operation fields, each selecting `leaves` aliased leaves through one fragment. */
  const wide = (leaves: number) =>
    `{ test { ${Array.from({ length: 100 }, (_, i) => `c${i}: count { ...L }`).join(" ")} } }
     fragment L on TestCount { ${Array.from({ length: leaves }, (_, i) => `r${i}: runs`).join(" ")} }`;

  it("1,901 fields run (the area, 100 operation fields, 18 leaves each)", async () => {
    const response = await graphql(app, wide(18));
    expect(response.statusCode, response.body).toBe(200);
    expect(counter.runs()).toBe(100);
  });

  it("2,001 are refused before anything is compiled, with the numbers in the message", async () => {
    const message = await expectRefused(wide(19), "selectedFields");
    expect(message).toMatch(/2001 fields.*at most 2000/);
  });

  it("the widest shape the other limits let through is refused without compiling it", async () => {
    // 100 operation fields of 420 leaves (42,101 fields in 2,000 tokens): compiled, it took
    // 15 s and 700 MB of heap.
    const query = wide(420);
    expect(countTokens(query, 3000)).toBeLessThanOrEqual(DEFAULT_GRAPHQL_LIMITS.maxTokens);
    const started = performance.now();
    await expectRefused(query, "selectedFields");
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe("depth", () => {
  const selection = "{ a { b { c { d { e { f { value } } } } } } }";

  it("a query 9 levels deep is refused", async () => {
    const message = await expectRefused(`{ test { deep ${selection} } }`, "depth");
    expect(message).toMatch(/9 levels.*at most 8/);
  });

  it("depth through fragments counts", async () => {
    await expectRefused(
      `{ test { deep { ...A } } } fragment A on TestDeep { a { ...B } }
       fragment B on TestDeepA { b { c { d { e { f { value } } } } } }`,
      "depth",
    );
  });

  it("8 levels run", async () => {
    const response = await graphql(
      app,
      "{ test { deep { a { b { c { d { e { __typename } } } } } } } }",
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(counter.runs()).toBe(1);
  });

  it("introspection is not limited by depth", async () => {
    const response = await graphql(app, getIntrospectionQuery({ descriptions: true }));
    expect(response.statusCode).toBe(200);
    expect(response.parsed.errors).toBeUndefined();
  });
});

describe("introspection fields", () => {
  // Each answers up to the whole schema: 200 aliases of a full `__schema` once took the heap
  // past its cap, ending the process.
  const full =
    "fragment S on __Schema { types { name fields { name args { name } type { name } } } }";
  it("two per request are answered", async () => {
    const response = await graphql(
      app,
      `{ a: __schema { ...S } b: __type(name: "Query") { name } } ${full}`,
    );
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.parsed.errors).toBeUndefined();
  });

  it.each([
    ["three aliases", `{ a: __schema { ...S } b: __schema { ...S } c: __schema { ...S } } ${full}`],
    [
      "200 aliases through a fragment",
      `{ ${Array.from({ length: 200 }, (_, i) => `a${i}: __schema { ...S }`).join(" ")} } ${full}`,
    ],
  ])("%s are refused whole, before anything runs", async (_name, query) => {
    const message = await expectRefused(query, "introspection");
    expect(message).toMatch(/at most 2 are allowed/);
  });

  it("aliases below __schema are refused: 20 on three levels asked for 8,000 copies of the schema's fields", async () => {
    const level = (prefix: string, inner: string) =>
      Array.from({ length: 20 }, (_, i) => `${prefix}${i}: ${inner}`).join(" ");
    const query = `{ __schema { types { ...A } } }
      fragment A on __Type { ${level("a", "fields { type { ...B } }")} }
      fragment B on __Type { ${level("b", "fields { type { ...C } }")} }
      fragment C on __Type { ${level("c", "name")} }`;
    const message = await expectRefused(query, "introspection");
    expect(message).toMatch(/Aliases are not allowed below/);
  });
});

describe("document size", () => {
  it("a query text over 32 KB is refused", async () => {
    const padding = `# ${"x".repeat(33 * 1024)}\n`;
    const message = await expectRefused(`${padding}{ test { count { runs } } }`, "documentBytes");
    expect(message).toMatch(/at most 32768 bytes/);
  });

  it("a query with more than 2000 tokens is refused", async () => {
    const args = Array.from({ length: 700 }, (_, i) => `c${i}: __typename`).join(" ");
    await expectRefused(`{ test { count { runs ${args} } } }`, "tokens");
  });

  it.each([
    ["an unknown key", { foo: 1 }],
    ["variables that are not an object", { variables: 5 }],
  ])("an over-long text is refused before %s", async (_name, extra) => {
    const query = `# ${"x".repeat(33 * 1024)}\n{ test { count { runs } } }`;
    const response = await app.inject({
      method: "POST",
      url: "/graphql",
      headers: { ...AUTH, "content-type": "application/json" },
      payload: { query, ...extra },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].extensions.limit).toBe("documentBytes");
    expect(counter.runs()).toBe(0);
  });

  it("long lists go in variables instead", async () => {
    const response = await graphql(app, "query ($n: Int) { test { count(n: $n) { runs } } }", {
      n: 3,
    });
    expect(response.parsed).toEqual({ data: { test: { count: { runs: 1 } } } });
  });
});

describe("measureDocument", () => {
  it("counts fields two levels down and the deepest nesting", () => {
    expect(
      measureDocument(parse("{ a: math { x: sum { decimal } y: sum { decimal } } b: hash { h } }")),
    ).toMatchObject({ operationFields: 3, depth: 3, introspectionFields: 0 });
  });

  it("ignores introspection and stays linear on nested fragment spreads", () => {
    const fragments = Array.from(
      { length: 60 },
      (_, i) => `fragment F${i} on T { ...F${i + 1} ...F${i + 1} }`,
    ).join("\n");
    const document = parse(
      `{ __schema { types { name } } m { ...F0 } } ${fragments} fragment F60 on T { x }`,
    );
    const started = performance.now();
    const measure = measureDocument(document);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(measure.operationFields).toBe(2 ** 60);
    expect(measure.depth).toBe(2);
  });

  it("survives fragment cycles (the standard rules refuse them)", () => {
    expect(
      measureDocument(parse("{ m { ...A } } fragment A on T { ...B } fragment B on T { ...A x }")),
    ).toMatchObject({ operationFields: 1, depth: 2, introspectionFields: 0 });
  });
});

describe("countTokens", () => {
  it("counts punctuators, names and values, not comments", () => {
    expect(countTokens('# comment\n{ a(b: [1, "2"]) }', 100)).toBe(11);
  });

  it("stops past the limit", () => {
    expect(countTokens("{ a a a a a a a a a a }", 3)).toBe(4);
  });

  it("the defaults are those documented", () => {
    expect(DEFAULT_GRAPHQL_LIMITS).toEqual({
      maxOperationFields: 100,
      maxDepth: 8,
      maxSelectedFields: 2000,
      maxIntrospectionFields: 2,
      maxTokens: 2000,
      maxDocumentBytes: 32 * 1024,
    });
  });
});

describe("list items per request", () => {
  it("are capped across fields at one REST request's worth: later fields fail on their own", async () => {
    const app = await buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY }),
      operations: await allOperations(),
      logger: false,
    });
    const numbers = Array.from({ length: 6000 }, () => "1");
    const response = await graphql(
      app,
      "query ($n: [Decimal!]!) { a: math { sum(numbers: $n) { count } } b: math { sum(numbers: $n) { count } } }",
      { n: numbers },
    );
    await app.close();
    expect(response.parsed.data).toEqual({ a: { sum: { count: 6000 } }, b: { sum: null } });
    expect(response.parsed.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(response.parsed.errors?.[0]?.message).toMatch(/more than 10000 list items/);
  });

  it.each([
    ["one variable of 10,001", { n: 1, list: Array(10_001).fill("1") }],
    ["two of 6,000, neither declared", { n: 1, a: Array(6000).fill(1), b: Array(6000).fill(1) }],
    ["nested lists", { n: 1, list: [Array(6000).fill("1"), Array(6000).fill("1")] }],
    [
      // More than 20,000 is refused with the body, before it is parsed (test/json-depth.test.ts).
      "an object of 12,000 fields (graphql wrote all of it into its error)",
      { n: Object.fromEntries(Array.from({ length: 12_000 }, (_, i) => [i.toString(36), 1])) },
    ],
  ])(
    "variables holding more are refused whole before they are coerced: %s",
    async (_name, variables) => {
      const message = await expectRefused(
        "query ($n: Int) { test { count(n: $n) { runs } } }",
        "listItems",
        variables,
      );
      expect(message).toMatch(/at most 10000 are allowed per request/);
    },
  );
});
