/**
 * The request budget (src/kit/cost.ts): what a request would produce is known from its
 * input before anything runs. A REST request over it is a 422; a GraphQL document whose
 * fields together pass it is refused whole (HTTP 400, LIMIT_EXCEEDED) on both the fast
 * path and yoga, before any field runs; a document within it answers as before.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { REQUEST_BUDGET } from "../src/kit/cost.js";
import { AUTH, allOperations, TEST_KEY } from "./helpers.js";

/** Ten rules of 32-character words: every item may carry all ten (320 characters). */
const RULES = Array.from({ length: 10 }, (_, i) => `${i + 1}:${String(i).repeat(32)}`);
/** `n` aliases of one FizzBuzz field, spread from a fragment (100 written out pass 2,000 tokens). */
const FIZZ = (n: number) =>
  `query($r: [String!]) { ${Array.from({ length: n }, (_, i) => `f${i}: misc { ...F }`).join(" ")} }
   fragment F on MiscOperations { fizzbuzz(start: 1, end: 10000, rules: $r) { items } }`;
/** 200 numbers spanning 10,000 digits, added in linear time all the same. */
const WIDE = Array.from({ length: 200 }, (_, i) => (i % 2 ? "1e4999" : "1e-4999"));
/** 10,000 numbers: 10 million digit operations per field that reads them. */
const TEN_THOUSAND = Array.from({ length: 10_000 }, (_, i) => `${i}.5`);
/** 10,000 numbers of 100 characters, each read in about a microsecond. */
const LONG_NUMBERS = Array.from({ length: 10_000 }, () => `${"9".repeat(50)}.${"1".repeat(49)}`);
const SUMS = (n: number) =>
  `query($n: [Decimal!]!) { ${Array.from({ length: n }, (_, i) => `s${i}: math { sum(numbers: $n) { count } }`).join(" ")} }`;

const apps: Record<string, FastifyInstance> = {};
/** Handler calls so far, every operation's: a document refused whole runs none. */
let handled = 0;
beforeAll(async () => {
  const operations = (await allOperations()).map((operation) => ({
    ...operation,
    handler: (input: Parameters<typeof operation.handler>[0]) => {
      handled++;
      return operation.handler(input);
    },
  }));
  for (const fastPath of [true, false]) {
    apps[fastPath ? "fast path" : "yoga"] = await buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY }),
      operations,
      logger: false,
      graphqlFastPath: fastPath,
    });
  }
});
afterAll(async () => {
  for (const app of Object.values(apps)) await app.close();
});

const post = (app: FastifyInstance, query: string, variables: Record<string, unknown>) =>
  app.inject({
    method: "POST",
    url: "/graphql",
    headers: { ...AUTH, "content-type": "application/json" },
    payload: { query, variables },
  });

describe.each(["fast path", "yoga"])("GraphQL documents, %s", (path) => {
  it.each([
    ["100 FizzBuzz fields of 10,000 items with ten 32-character words", FIZZ(100), { r: RULES }],
    ["2 such fields (6.5 MB together)", FIZZ(2), { r: RULES }],
    ["3 sums of 10,000 numbers (30 million digit operations)", SUMS(3), { n: TEN_THOUSAND }],
    ["100 sums of one variable of 10,000 100-digit numbers", SUMS(100), { n: LONG_NUMBERS }],
  ])("refuses %s whole, before any field runs", async (_name, query, variables) => {
    const before = handled;
    const response = await post(apps[path] as FastifyInstance, query, variables);
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json();
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions).toMatchObject({ code: "LIMIT_EXCEEDED", limit: "budget" });
    expect(body.errors[0].message).toMatch(/request budget/);
    expect(handled - before).toBe(0);
  });

  it.each([
    [
      "one FizzBuzz field of 10,000 items with ten long words (the runner's to check)",
      FIZZ(1),
      { r: RULES },
    ],
    [
      "100 FizzBuzz fields of 100 numbers",
      `{ ${Array.from({ length: 100 }, (_, i) => `f${i}: misc { fizzbuzz { items } }`).join(" ")} }`,
      {},
    ],
    ["2 sums of 5,000 numbers", SUMS(2), { n: TEN_THOUSAND.slice(0, 5000) }],
    [
      "one FizzBuzz of 10,000 items and 30 of 3 sharing its rules (each costed by its own arguments)",
      `query($r: [String!]) { big: misc { fizzbuzz(start: 1, end: 10000, rules: $r) { items } } ${Array.from(
        { length: 30 },
        (_, i) => `f${i}: misc { fizzbuzz(start: 1, end: 3, rules: $r) { items } }`,
      ).join(" ")} }`,
      { r: RULES },
    ],
    ["50 sums of 200 numbers spanning 10,000 digits", SUMS(50), { n: WIDE }],
  ])("answers %s", async (_name, query, variables) => {
    const before = handled;
    const response = await post(apps[path] as FastifyInstance, query, variables);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.json().errors).toBeUndefined();
    expect(handled - before).toBeGreaterThan(0);
  });

  // Each operation's declared work, field after field: a few full-size fields fit, more are refused.
  const NETWORKS = Array.from({ length: 1000 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);
  const LONG_TEXT = "not good, ".repeat(1000);
  const fields = (n: number, field: string, selection: string) =>
    Array.from({ length: n }, (_, i) => `f${i}: ${field} ${selection}`).join(" ");
  it.each([
    [
      "math/sum of 10,000 numbers",
      "[Decimal!]!",
      "math { sum(numbers: $v) { count } }",
      TEN_THOUSAND,
      2,
    ],
    [
      "stats/product of 10,000 factors",
      "[Decimal!]!",
      "stats { product(numbers: $v) { count } }",
      TEN_THOUSAND,
      2,
    ],
    [
      "stats/range of 10,000 numbers",
      "[Decimal!]!",
      "stats { range(numbers: $v) { count } }",
      TEN_THOUSAND,
      2,
    ],
    [
      "ip/supernet of 1,000 networks",
      "[String!]!",
      "ip { supernet(networks: $v) { prefixLength } }",
      NETWORKS,
      4,
    ],
    [
      "text/sentiment of 10,000 characters",
      "String!",
      "text { sentiment(text: $v) { score } }",
      LONG_TEXT,
      2,
    ],
    [
      "math/nth-root",
      "Decimal!",
      "math { nthRoot(number: $v, degree: 1000, precision: 100) { decimal } }",
      "2",
      3,
    ],
    [
      "finance/simple-interest",
      "Decimal!",
      'finance { simpleInterest(principal: $v, rate: "5", time: "1") { interest } }',
      "1000",
      4,
    ],
  ])("counts %s: %#", async (_name, type, field, value, fits) => {
    const query = (n: number) => `query($v: ${type}) { ${fields(n, field, "")} }`;
    const admitted = await post(apps[path] as FastifyInstance, query(fits), { v: value });
    expect(admitted.statusCode, admitted.body.slice(0, 300)).toBe(200);
    const refused = await post(apps[path] as FastifyInstance, query(fits + 1), { v: value });
    expect(refused.statusCode, refused.body.slice(0, 300)).toBe(400);
    expect(refused.json().errors[0].extensions).toMatchObject({ limit: "budget" });
  });

  it("counts the same document again on every request: literal arguments once worked out, variables each time", async () => {
    const app = apps[path] as FastifyInstance;
    const rules = RULES.map((r) => `"${r}"`).join(",");
    const literal = `{ ${[0, 1].map((i) => `f${i}: misc { fizzbuzz(start: 1, end: 10000, rules: [${rules}]) { items } }`).join(" ")} }`;
    for (let round = 0; round < 3; round++) {
      const response = await post(app, literal, {});
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].extensions).toMatchObject({ limit: "budget" });
    }
    const statuses = [];
    for (const n of [["1", "2"], TEN_THOUSAND, ["3"]])
      statuses.push((await post(app, SUMS(3), { n })).statusCode);
    expect(statuses).toEqual([200, 400, 200]);
  });

  it("leaves a field whose arguments are invalid to fail on its own", async () => {
    const response = await post(
      apps[path] as FastifyInstance,
      `{ a: math { sum(numbers: ["1", "x"]) { count } } b: math { sum(numbers: ["2"]) { count } } }`,
      {},
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().data.b).toEqual({ sum: { count: 1 } });
    expect(response.json().errors[0].extensions.code).toBe("BAD_USER_INPUT");
  });
});

describe("REST", () => {
  const get = (url: string) =>
    (apps["fast path"] as FastifyInstance).inject({ url, headers: AUTH });

  it("answers the largest FizzBuzz the budget admits (ten 32-character ASCII words)", async () => {
    const response = await get(
      `/v1/misc/fizzbuzz?start=1&end=10000&rules=${RULES.map((r) => `1${r.slice(r.indexOf(":"))}`).join(",")}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThanOrEqual(REQUEST_BUDGET.bytes);
    expect(response.rawPayload.length).toBeGreaterThan(3_000_000);
  });

  it("refuses with a 422 a FizzBuzz whose answer would pass the budget (32 emoji a word)", async () => {
    const word = encodeURIComponent("😀".repeat(32));
    const rules = Array.from({ length: 10 }, () => `1:${word}`).join(",");
    const response = await get(`/v1/misc/fizzbuzz?start=1&end=10000&rules=${rules}`);
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([
      expect.objectContaining({ loc: ["query", "rules"], type: "value_error" }),
    ]);
    expect(response.json().detail[0].msg).toMatch(/at most 4194304/);
  });
});
