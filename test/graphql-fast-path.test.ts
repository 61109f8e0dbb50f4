/**
 * The two HTTP adapters of the one GraphQL pipeline (src/graphql/adapters.ts) must answer
 * alike: the shortcut for plain JSON POSTs, and yoga. Every request below goes to two apps,
 * one with the shortcut and one with yoga alone, and both answers must be the same: status,
 * content type, Retry-After and body, byte for byte. A second table says which requests
 * the shortcut takes at all, so the comparison is known to compare the two adapters; a
 * third part sends documents built with test/fuzz's generators (every operation, valid
 * and spoiled variables) through both.
 */

import fc from "fast-check";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { GraphQLObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { shortcutParams } from "../src/graphql/adapters.js";
import { graphqlFieldOf } from "../src/graphql/names.js";
import { buildGraphqlSchema } from "../src/graphql/schema.js";
import type { AnyOperation } from "../src/kit/define.js";
import { brokenOperation, liarOperation } from "./fixtures/faulty-operations.js";
import { type OperationSpec, operationsOf, valuesArb } from "./fuzz/generators.js";
import { AUTH, allOperations, TEST_KEY } from "./helpers.js";

interface Case {
  name: string;
  body: unknown;
  headers?: Record<string, string>;
  /** Whether the shortcut adapter takes it (else yoga's adapter does). */
  fast: boolean;
}

const SUM = '{ math { sum(numbers: ["1", "2", "3"]) { result decimal count } } }';
const TWO_OPERATIONS =
  'query A { math { sum(numbers: ["1"]) { decimal } } } query B { math { subtract(a: "5", b: "2") { decimal } } }';
const manyItems = Array.from({ length: 6000 }, (_, i) => String(i));

const CASES: Case[] = [
  { name: "one operation", body: { query: SUM }, fast: true },
  {
    name: "a batch with aliases",
    body: {
      query:
        '{ math { a: sum(numbers: ["0.1", "0.2"]) { decimal } b: nthRoot(number: "27", degree: 3) { decimal isExact } } datetime { isLeapYear(year: 2024) { isLeapYear } } }',
    },
    fast: true,
  },
  {
    name: "variables",
    body: {
      query: "query ($n: [Decimal!]!) { math { sum(numbers: $n) { decimal count } } }",
      variables: { n: ["1.5", 2] },
    },
    fast: true,
  },
  {
    name: "null variables and operationName",
    body: { query: SUM, variables: null, operationName: null },
    fast: true,
  },
  {
    name: "operationName picks one of two",
    body: { query: TWO_OPERATIONS, operationName: "B" },
    fast: true,
  },
  {
    name: "one field fails, the other answers",
    body: {
      query:
        '{ math { ok: sum(numbers: ["1"]) { decimal } bad: sum(numbers: ["x"]) { decimal } } }',
    },
    fast: true,
  },
  {
    name: "a value the handler refuses",
    body: { query: '{ math { nthRoot(number: "-8", degree: 2) { decimal } } }' },
    fast: true,
  },
  {
    name: "not found",
    body: { query: '{ fun { wouldYouRather(id: "zzz-999") { id } } }' },
    fast: true,
  },
  {
    name: "faults are masked",
    body: { query: "{ a: test { broken { value } } b: test { liar { value } } }" },
    fast: true,
  },
  {
    name: "a variable of the wrong type",
    body: {
      query: "query ($n: [Decimal!]!) { math { sum(numbers: $n) { decimal } } }",
      variables: { n: [true] },
    },
    fast: true,
  },
  {
    name: "a missing variable",
    body: { query: "query ($n: [Decimal!]!) { math { sum(numbers: $n) { decimal } } }" },
    fast: true,
  },
  {
    name: "more list items than one request may send",
    body: {
      query:
        "query ($n: [Decimal!]!) { math { a: sum(numbers: $n) { count } b: sum(numbers: $n) { count } } }",
      variables: { n: manyItems },
    },
    fast: true,
  },
  { name: "introspection", body: { query: "{ __schema { queryType { name } } }" }, fast: true },
  { name: "a syntax error", body: { query: "{ math { sum(" }, fast: true },
  { name: "an unknown field", body: { query: "{ math { nope { x } } }" }, fast: true },
  {
    name: "too many operation fields",
    body: {
      query: `{ math { ${Array.from({ length: 101 }, (_, i) => `f${i}: sum(numbers: ["1"]) { count }`).join(" ")} } }`,
    },
    fast: true,
  },
  { name: "two operations without operationName", body: { query: TWO_OPERATIONS }, fast: true },
  { name: "an unknown operationName", body: { query: SUM, operationName: "C" }, fast: true },
  { name: "a mutation", body: { query: "mutation { x }" }, fast: true },
  { name: "a subscription", body: { query: "subscription { x }" }, fast: true },
  { name: "extensions", body: { query: SUM, extensions: {} }, fast: true },
  { name: "an unknown body key", body: { query: SUM, foo: 1 }, fast: false },
  { name: "variables that are a list", body: { query: SUM, variables: [1] }, fast: false },
  { name: "a query that is not a string", body: { query: 1 }, fast: false },
  { name: "a batch (array body)", body: [{ query: SUM }], fast: false },
  { name: "an empty object", body: {}, fast: false },
  { name: "null", body: null, fast: false },
  { name: "a number", body: 5, fast: false },
  {
    name: "a __proto__ key",
    body: JSON.parse(`{"query":${JSON.stringify(SUM)},"__proto__":{"query":"{ x }"}}`),
    fast: false,
  },
  {
    name: "a lone surrogate in a string variable",
    body: {
      query: "query ($t: String!) { crypto { checksumMd5(text: $t) { digest } } }",
      variables: { t: "a\ud800" },
    },
    fast: true,
  },
  {
    name: "Accept: application/graphql-response+json",
    body: { query: '{ math { sum(numbers: ["x"]) { decimal } } }' },
    headers: { accept: "application/graphql-response+json" },
    fast: false,
  },
  { name: "Accept: */*", body: { query: SUM }, headers: { accept: "*/*" }, fast: true },
];

function post(app: FastifyInstance, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: "POST",
    url: "/graphql",
    headers: { ...AUTH, "content-type": "application/json", ...headers },
    payload: JSON.stringify(body),
  });
}

/** What must be the same on both paths. */
function answer(response: Awaited<ReturnType<typeof post>>) {
  return {
    status: response.statusCode,
    contentType: response.headers["content-type"],
    retryAfter: response.headers["retry-after"],
    body: response.body,
  };
}

let operations: AnyOperation[];
beforeAll(async () => {
  operations = [...(await allOperations()), brokenOperation, liarOperation];
});

async function appPair(env: Record<string, string> = {}) {
  const make = (graphqlFastPath: boolean) =>
    buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY, ...env }),
      operations,
      logger: false,
      graphqlFastPath,
    });
  return { fast: await make(true), yoga: await make(false) };
}

/** The pair for one describe block: built before its tests, closed after them. */
function useAppPair(): { fast: FastifyInstance; yoga: FastifyInstance } {
  const apps = {} as { fast: FastifyInstance; yoga: FastifyInstance };
  beforeAll(async () => {
    Object.assign(apps, await appPair());
  });
  afterAll(async () => {
    await apps.fast.close();
    await apps.yoga.close();
  });
  return apps;
}

describe("the GraphQL fast path answers as yoga does", () => {
  const apps = useAppPair();

  it.each(CASES)("$name", async ({ body, headers }) => {
    // Twice: the first request prepares the query, the second finds it prepared; both
    // answer alike (graphql's own execute would not: it orders and locates errors otherwise).
    const answers = [];
    for (let round = 0; round < 2; round += 1) {
      const viaYoga = answer(await post(apps.yoga, body, headers));
      const viaFastPath = answer(await post(apps.fast, body, headers));
      expect(viaFastPath).toEqual(viaYoga);
      expect(viaYoga.status).toBeLessThan(500);
      answers.push(viaYoga);
    }
    expect(answers[1]).toEqual(answers[0]);
  });

  it.each(["mutation", "subscription"])("a %s is a validation error, not a fault", async (kind) => {
    const response = await post(apps.fast, { query: `${kind} { x }` });
    expect(response.statusCode).toBe(200);
    expect(response.json().errors).toEqual([
      expect.objectContaining({
        message: `The ${kind} operation is not supported by the schema.`,
        extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
      }),
    ]);
    const strict = await post(
      apps.fast,
      { query: `${kind} { x }` },
      { accept: "application/graphql-response+json" },
    );
    expect(strict.statusCode).toBe(400);
  });

  it("each operation of a document runs itself, whichever was asked for first", async () => {
    // A text no other case sends, so this test's first request is the first for it.
    const query = `${TWO_OPERATIONS} # both`;
    const asked = [
      { operationName: "B", method: "POST", accept: "application/json" },
      { operationName: "A", method: "GET", accept: "application/json" },
      { operationName: "A", method: "POST", accept: "application/graphql-response+json" },
      { operationName: "B", method: "GET", accept: "application/graphql-response+json" },
      { operationName: "A", method: "POST", accept: "*/*" },
    ];
    for (const app of [apps.fast, apps.yoga]) {
      const answers = [];
      for (const { operationName, method, accept } of asked) {
        const response =
          method === "GET"
            ? await app.inject({
                url: `/graphql?query=${encodeURIComponent(query)}&operationName=${operationName}`,
                headers: { ...AUTH, accept },
              })
            : await post(app, { query, operationName }, { accept });
        answers.push(response.json().data.math);
      }
      expect(answers).toEqual([
        { subtract: { decimal: "3" } },
        { sum: { decimal: "1" } },
        { sum: { decimal: "1" } },
        { subtract: { decimal: "3" } },
        { sum: { decimal: "1" } },
      ]);
    }
  });

  it("over the quota, a 429 with Retry-After", async () => {
    const limited = await appPair({ RATE_LIMIT: "3" });
    const query = {
      query: '{ math { a: sum(numbers: ["1"]) { count } b: sum(numbers: ["2"]) { count } } }',
    };
    const fast = [answer(await post(limited.fast, query)), answer(await post(limited.fast, query))];
    const yoga = [answer(await post(limited.yoga, query)), answer(await post(limited.yoga, query))];
    await limited.fast.close();
    await limited.yoga.close();
    expect(fast).toEqual(yoga);
    expect(fast.map((a) => a.status)).toEqual([200, 429]);
    expect(fast[1]?.retryAfter).toMatch(/^\d+$/);
  });
});

describe("which requests the shortcut takes", () => {
  const requestFor = (body: unknown, headers: Record<string, string> = {}, method = "POST") =>
    ({
      method,
      headers: { "content-type": "application/json", ...headers },
      body,
    }) as unknown as FastifyRequest;

  it.each(CASES)("$name: fast $fast", ({ body, headers, fast }) => {
    expect(shortcutParams(requestFor(body, headers)) !== undefined).toBe(fast);
  });

  it("leaves GET, and bodies that are not JSON, to yoga", () => {
    expect(shortcutParams(requestFor({ query: SUM }, {}, "GET"))).toBeUndefined();
    const asText = requestFor(SUM, { "content-type": "application/graphql" });
    expect(shortcutParams(asText)).toBeUndefined();
  });
});

/** `{ a b { c } }` for the fields of a documented 200 schema, as test/fuzz selects them. */
type DocumentedSchema = {
  type?: string;
  properties?: Record<string, DocumentedSchema>;
  items?: DocumentedSchema;
};
function selectionOf(schema: DocumentedSchema): string {
  return Object.entries(schema.properties ?? {})
    .map(([name, sub]) => {
      const inner = sub.type === "array" ? (sub.items ?? {}) : sub;
      return inner.properties ? `${name} { ${selectionOf(inner)} }` : name;
    })
    .join(" ");
}

/** A variable's JSON value from the URL spelling test/fuzz generates. */
function variableOf(param: OperationSpec["params"][number], values: string[]): unknown {
  const convert = (kind: string | undefined, value: string): unknown =>
    kind === "integer" ? Number(value) : kind === "boolean" ? value === "true" : value;
  if (param.kind === "list") return values.map((v) => convert(param.itemKind, v));
  return convert(param.kind, values[0] as string);
}

describe("documents generated by test/fuzz answer alike on both routes", () => {
  const apps = useAppPair();

  it("every operation, valid values and spoiled ones, byte for byte", async () => {
    const doc = (await apps.yoga.inject({ url: "/openapi.json" })).json() as Record<
      string,
      unknown
    >;
    const schema = buildGraphqlSchema(operations);
    const specs = operationsOf(doc);
    expect(specs.length).toBeGreaterThan(0);
    let compared = 0;
    let randomAnswers = 0;
    for (const [index, spec] of specs.entries()) {
      const [, , area = "", ...rest] = spec.path.split("/");
      const { area: areaField, field } = graphqlFieldOf({ area, name: rest.join("/") });
      const areaType = schema.getQueryType()?.getFields()[areaField]?.type as GraphQLObjectType;
      const args = new Map(
        areaType.getFields()[field]?.args.map((arg) => [arg.name, String(arg.type)]) ?? [],
      );
      const paths = doc.paths as Record<
        string,
        {
          get: {
            responses: Record<string, { content: Record<string, { schema: DocumentedSchema }> }>;
          };
        }
      >;
      const selection = selectionOf(
        paths[spec.path]?.get.responses["200"]?.content["application/json"]?.schema ?? {},
      );
      for (const values of fc.sample(valuesArb(spec), { seed: 1400 + index, numRuns: 4 })) {
        const names = Object.keys(values);
        const declared = names.map((name) => `$${name}: ${args.get(name)}`).join(", ");
        const passed = names.map((name) => `${name}: $${name}`).join(", ");
        const query = `query Fuzz${declared ? `(${declared})` : ""} { ${areaField} { ${field}${passed ? `(${passed})` : ""} { ${selection} } } }`;
        const valid = Object.fromEntries(
          spec.params
            .filter((param) => values[param.name] !== undefined)
            .map((param) => [param.name, variableOf(param, values[param.name] as string[])]),
        );
        const spoiled = Object.fromEntries(names.map((name) => [name, "spoiled"]));
        for (const variables of [valid, spoiled]) {
          const body = { query, variables };
          const viaYoga = answer(await post(apps.yoga, body));
          const viaFastPath = answer(await post(apps.fast, body));
          // A random answer (no id asked) differs between requests: then all but the body. Two
          // draws of 20 questions agree 1 time in 20, so up to five more are asked for.
          let random = false;
          for (let draw = 0; draw < 5 && !random; draw++) {
            random = answer(await post(apps.yoga, body)).body !== viaYoga.body;
          }
          if (random) {
            viaFastPath.body = viaYoga.body;
            randomAnswers += 1;
          }
          expect(viaFastPath, JSON.stringify(body)).toEqual(viaYoga);
          expect(viaYoga.status).toBeLessThan(500);
          compared += 1;
        }
      }
    }
    expect(compared).toBe(specs.length * 8);
    // Only the few operations answering at random are compared without their bodies.
    expect(randomAnswers).toBeLessThan(compared / 10);
  }, 120_000);
});
