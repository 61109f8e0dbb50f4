/**
 * The GraphQL gateway over HTTP: every registry example answers as over REST, batches,
 * per-field failures, the API-key layer, GraphiQL, introspection and discovery. Like
 * contract.test.ts it is registry-driven: a new operation module is covered with no edit.
 */
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  type IntrospectionQuery,
  isObjectType,
  parse,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { chargedCost } from "../src/core/budget.js";
import { DEFAULT_GRAPHQL_LIMITS } from "../src/graphql/limits.js";
import { type Cost, REQUEST_BUDGET } from "../src/kit/cost.js";
import type { AnyOperation } from "../src/kit/define.js";
import { describeParam } from "../src/kit/params.js";
import { DEFAULT_OPERATIONS_DIR, loadOperations } from "../src/registry/loader.js";
import { brokenOperation, countingOperation, liarOperation } from "./fixtures/faulty-operations.js";
import {
  fieldFor,
  fieldsOf,
  type GraphqlBody,
  graphql,
  selectionFor,
  withoutNulls,
} from "./graphql-helpers.js";
import { AUTH, allOperations, queryOf, TEST_KEY, testApp, urlOf } from "./helpers.js";

const operations = await allOperations();
const byId = new Map(operations.map((o) => [`${o.area}/${o.name}`, o]));
const has = (...ids: string[]) => ids.every((id) => byId.has(id));

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

/** The REST answer for an input, to compare GraphQL's with. */
async function restAnswer(operation: AnyOperation, input: Record<string, unknown>) {
  const response = await app.inject({ url: urlOf(operation, queryOf(input)), headers: AUTH });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/**
 * Groups field indices into as few documents as the request limits allow: at most the
 * field limit each, and a document graphql-js still parses within the token limit.
 */
function batchWithinLimits(fields: readonly string[], costs: readonly Cost[] = []): number[][] {
  const { maxOperationFields, maxTokens, maxDocumentBytes } = DEFAULT_GRAPHQL_LIMITS;
  // The fields of one document share the request budget: a batch holds what fits in it.
  const total = (batch: number[], key: "work" | "bytes") =>
    batch.reduce((sum, i) => sum + (costs[i]?.[key] ?? 0), 0);
  const fits = (batch: number[]) => {
    const query = `{\n${batch.map((i) => fields[i]).join("\n")}\n}`;
    if (batch.length > maxOperationFields || Buffer.byteLength(query) > maxDocumentBytes) {
      return false;
    }
    if (
      total(batch, "work") > REQUEST_BUDGET.work ||
      total(batch, "bytes") > REQUEST_BUDGET.bytes
    ) {
      return false;
    }
    try {
      parse(query, { maxTokens });
      return true;
    } catch {
      return false;
    }
  };
  const batches: number[][] = [];
  let current: number[] = [];
  for (const index of fields.keys()) {
    if (current.length > 0 && !fits([...current, index])) {
      batches.push(current);
      current = [];
    }
    current.push(index);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

function answerOf(body: GraphqlBody, operation: AnyOperation, alias?: string): unknown {
  const { area, field } = fieldsOf(operation);
  return body.data?.[alias ?? area]?.[field];
}

describe.each(
  operations.map((operation) => [`${operation.area}/${operation.name}`, operation] as const),
)("%s", (_id, operation) => {
  it.each(operation.examples.map((example) => [example.title, example] as const))(
    "example over GraphQL equals REST: %s",
    async (_title, example) => {
      const response = await graphql(app, `{ ${fieldFor(operation, example.input)} }`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.parsed.errors, response.body).toBeUndefined();
      const answer = answerOf(response.parsed, operation);
      expect(withoutNulls(answer)).toEqual(
        withoutNulls(await restAnswer(operation, example.input)),
      );
      expect(withoutNulls(answer)).toEqual(withoutNulls(example.output));
      expect(response.body).not.toMatch(/NaN|Infinity/);
    },
  );
});

describe("batches", () => {
  it("runs every registered operation's first example in batches, as many fields per query as the limits allow", async () => {
    const fields = operations.map((operation, index) =>
      fieldFor(operation, operation.examples[0]?.input ?? {}, `op${index}`),
    );
    const costs = operations.map((operation) =>
      chargedCost(operation, operation.examples[0]?.input ?? {}),
    );
    const batches = batchWithinLimits(fields, costs);
    expect(batches.flat().sort((x, y) => x - y)).toEqual(operations.map((_, index) => index));
    if (operations.length > 1) expect(batches[0]?.length).toBeGreaterThan(1);
    for (const batch of batches) {
      const response = await graphql(app, `{\n${batch.map((i) => fields[i]).join("\n")}\n}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.parsed.errors, response.body).toBeUndefined();
      for (const index of batch) {
        const operation = operations[index] as AnyOperation;
        expect(withoutNulls(answerOf(response.parsed, operation, `op${index}`))).toEqual(
          withoutNulls(await restAnswer(operation, operation.examples[0]?.input ?? {})),
        );
      }
    }
  });

  it.runIf(has("math/sum", "hash/hmac-md5", "misc/status-code"))(
    "answers the contract's example query (section 4)",
    async () => {
      const response = await graphql(
        app,
        `{
  math { sum(numbers: ["0.1", "0.2"]) { result decimal count } }
  hash { hmacMd5(text: "what do ya want for nothing?", key: "Jefe") { digest } }
  a: misc { statusCode(code: 404) { reason } }
  b: misc { statusCode(code: 500) { reason } }
}`,
      );
      expect(response.statusCode).toBe(200);
      expect(response.parsed).toEqual({
        data: {
          math: { sum: { result: 0.3, decimal: "0.3", count: 2 } },
          hash: { hmacMd5: { digest: "750c783e6ab0b503eaa86e310a5db738" } },
          a: { statusCode: { reason: "Not Found" } },
          b: { statusCode: { reason: "Internal Server Error" } },
        },
      });
    },
  );

  it.runIf(has("math/sum"))("the same operation many times with aliases", async () => {
    const fields = Array.from(
      { length: 100 },
      (_, i) => `s${i}: sum(numbers: ["${i}", "0.5"]) { decimal }`,
    );
    const response = await graphql(app, `{ math { ${fields.join(" ")} } }`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.parsed.data?.math?.s99).toEqual({ decimal: "99.5" });
  });
});

describe("failures stay in their own field", () => {
  it.runIf(has("math/sum", "math/subtract"))(
    "a bad list item is null with BAD_USER_INPUT and the REST detail under args",
    async () => {
      const response = await graphql(
        app,
        `{
  good: math { sum(numbers: ["1", "2"]) { decimal } }
  bad: math { sum(numbers: ["1", "2", "abc"]) { decimal } }
  other: math { subtract(a: "0.3", b: "0.1") { decimal } }
}`,
      );
      expect(response.statusCode).toBe(200);
      const { data, errors } = response.parsed;
      expect(data).toEqual({
        good: { sum: { decimal: "3" } },
        bad: { sum: null },
        other: { subtract: { decimal: "0.2" } },
      });
      expect(errors).toHaveLength(1);
      const error = errors?.[0];
      expect(error?.path).toEqual(["bad", "sum"]);
      expect(error?.extensions?.code).toBe("BAD_USER_INPUT");
      const rest = await app.inject({
        url: "/v1/math/sum?numbers=1&numbers=2&numbers=abc",
        headers: AUTH,
      });
      const restDetail = (rest.json() as { detail: { loc: string[] }[] }).detail;
      expect(error?.extensions?.detail).toEqual(
        restDetail.map((p) => ({ ...p, loc: ["args", ...p.loc.slice(1)] })),
      );
      expect(error?.extensions?.detail?.[0]?.loc).toEqual(["args", "numbers", "2"]);
    },
  );

  it('for every operation with a decimal parameter, "abc" fails only that field', async () => {
    const candidates = operations.flatMap((operation) =>
      Object.entries(operation.input.shape)
        .filter(([, schema]) => describeParam(schema).kind === "decimal")
        .slice(0, 1)
        .map(([name]) => ({ operation, name })),
    );
    for (const { operation, name } of candidates) {
      const example = operation.examples.find((e) => name in e.input) ?? operation.examples[0];
      const input = { ...(example?.input ?? {}), [name]: "abc" };
      const neighbour = operations.find((o) => o !== operation) ?? operation;
      const response = await graphql(
        app,
        `{ ${fieldFor(operation, input, "bad")} ${fieldFor(neighbour, neighbour.examples[0]?.input ?? {}, "good")} }`,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(answerOf(response.parsed, operation, "bad")).toBeNull();
      expect(answerOf(response.parsed, neighbour, "good")).toBeTruthy();
      const [error, ...others] = response.parsed.errors ?? [];
      expect(others).toEqual([]);
      expect(error?.extensions?.code).toBe("BAD_USER_INPUT");
      expect(error?.extensions?.detail?.some((p) => p.loc[0] === "args" && p.loc[1] === name)).toBe(
        true,
      );
    }
  });

  it.runIf(has("math/sum"))("one response reports at most 1000 problems in all", async () => {
    const fields = Array.from({ length: 20 }, (_, i) => `s${i}: sum(numbers: $n) { decimal }`);
    const response = await graphql(
      app,
      `query ($n: [Decimal!]!) { math { ${fields.join(" ")} } }`,
      {
        n: Array.from({ length: 200 }, () => "x"),
      },
    );
    const errors = response.parsed.errors ?? [];
    expect(errors).toHaveLength(20);
    const counts = errors.map((e) => e.extensions?.detail?.length ?? 0);
    expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1000 + 20);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(1);
    expect(counts.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(errors[19]?.extensions).toEqual(
      expect.objectContaining({ code: "BAD_USER_INPUT", omittedProblems: 199 }),
    );
    expect(errors[19]?.message).toMatch(/and 197 more/);
  });

  it.runIf(has("math/nth-root"))("a semantic failure is BAD_USER_INPUT too", async () => {
    const response = await graphql(
      app,
      `{ math { nthRoot(number: "-16", degree: 2) { decimal } } }`,
    );
    expect(response.parsed.data?.math?.nthRoot).toBeNull();
    const error = response.parsed.errors?.[0];
    expect(error?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(error?.extensions?.detail?.[0]).toEqual(
      expect.objectContaining({ type: "value_error", loc: expect.arrayContaining(["args"]) }),
    );
  });

  it.runIf(has("fun/would-you-rather"))("an unknown reference is NOT_FOUND", async () => {
    const response = await graphql(app, `{ fun { wouldYouRather(id: "zzz-999") { id } } }`);
    expect(response.parsed.data?.fun?.wouldYouRather).toBeNull();
    expect(response.parsed.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(response.parsed.errors?.[0]?.message).toMatch(/zzz-999/);
  });

  it("an unexpected fault is masked in the response and logged with its cause", async () => {
    const lines: string[] = [];
    const faulty = await buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY }),
      operations: [brokenOperation, liarOperation],
      logger: { level: "error", stream: { write: (line: string) => lines.push(line) } },
    });
    const response = await graphql(
      faulty,
      "{ a: test { broken { value } } b: test { liar { value } } }",
    );
    await faulty.close();
    expect(response.statusCode).toBe(200);
    expect(response.parsed.data).toEqual({ a: { broken: null }, b: { liar: null } });
    expect(response.parsed.errors?.map((e) => e.message)).toEqual([
      "Unexpected error.",
      "Unexpected error.",
    ]);
    expect(response.body).not.toMatch(/secret|srv|app\.ts|stack|liar answered/);
    // Logged once each, with the request id and the original message.
    const faults = lines.filter((line) => /unexpected fault/.test(line));
    expect(faults).toHaveLength(2);
    expect(faults.every((line) => /"requestId"/.test(line))).toBe(true);
    expect(faults.join("\n")).toMatch(/secret internals/);
    expect(faults.join("\n")).toMatch(/answered outside its output schema/);
  });
});

describe("the Decimal scalar", () => {
  it.runIf(has("math/sum"))("keeps a number literal's exact digits", async () => {
    const response = await graphql(
      app,
      "{ math { sum(numbers: [0.1000000000000000055511151231257827, 12345678901234567890]) { decimal } } }",
    );
    expect(response.parsed.data?.math?.sum).toEqual({
      decimal: "12345678901234567890.1000000000000000055511151231257827",
    });
  });

  it.runIf(has("math/sum"))("takes strings and JSON numbers in variables", async () => {
    const response = await graphql(
      app,
      "query ($n: [Decimal!]!) { math { sum(numbers: $n) { decimal } } }",
      { n: ["0.1", 0.2, 3] },
    );
    expect(response.parsed.data?.math?.sum).toEqual({ decimal: "3.3" });
  });

  it.runIf(has("math/sum"))("a bad variable fails only its own field", async () => {
    const response = await graphql(
      app,
      "query ($n: [Decimal!]!) { bad: math { sum(numbers: $n) { decimal } } good: math { sum(numbers: [1]) { decimal } } }",
      { n: ["NaN"] },
    );
    expect(response.parsed.data).toEqual({ bad: { sum: null }, good: { sum: { decimal: "1" } } });
    expect(response.parsed.errors?.[0]?.extensions?.detail?.[0]?.loc).toEqual([
      "args",
      "numbers",
      "0",
    ]);
  });

  it.runIf(has("math/sum"))("a boolean is not a decimal: the document is refused", async () => {
    const response = await graphql(app, "{ math { sum(numbers: [true]) { decimal } } }");
    expect(response.parsed.data).toBeUndefined();
    expect(response.parsed.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });
});

describe("integers beyond 32 bits", () => {
  it.runIf(has("datetime/is-leap-year"))("are carried by SafeInt", async () => {
    const response = await graphql(
      app,
      `{ a: datetime { isLeapYear(year: 9007199254740800) { year isLeapYear } }
         b: datetime { isLeapYear(year: "-4000000000") { year } } }`,
    );
    expect(response.parsed).toEqual({
      data: {
        a: { isLeapYear: { year: 9007199254740800, isLeapYear: true } },
        b: { isLeapYear: { year: -4000000000 } },
      },
    });
  });

  it.runIf(has("datetime/is-leap-year"))(
    "beyond the safe range only that field fails, with BAD_USER_INPUT; its neighbours answer",
    async () => {
      const response = await graphql(
        app,
        "{ a: datetime { isLeapYear(year: 9007199254740993) { year } } b: datetime { isLeapYear(year: 2024) { isLeapYear } } }",
      );
      expect(response.parsed.data).toEqual({
        a: { isLeapYear: null },
        b: { isLeapYear: { isLeapYear: true } },
      });
      expect(response.parsed.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      expect(response.parsed.errors?.[0]?.extensions?.detail).toEqual([
        expect.objectContaining({ loc: ["args", "year"], type: "less_than_equal" }),
      ]);
    },
  );
});

describe("the API-key layer", () => {
  const query = "{ __typename }";
  const refusals = [
    ["no key", {}, "Missing API key: send it in the X-API-Key header"],
    ["a wrong key", { "x-api-key": "wrong" }, "Invalid API key"],
  ] as const;

  it.each(refusals)(
    "POST with %s → 401 as REST, before the body is read",
    async (_w, headers, detail) => {
      const response = await app.inject({
        method: "POST",
        url: "/graphql",
        headers: { "content-type": "application/json", ...headers },
        // Not even JSON: a 400 here would mean the body was parsed first.
        payload: "{ this is not json",
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail });
      const rest = await app.inject({ url: urlOf(operations[0] as AnyOperation), headers });
      expect(response.body).toBe(rest.body);
      expect(response.headers["www-authenticate"]).toBe(rest.headers["www-authenticate"]);
    },
  );

  it.each(refusals)("GET with %s → 401, also when it accepts HTML", async (_w, headers, detail) => {
    for (const accept of ["application/json", "text/html"]) {
      const response = await app.inject({
        url: `/graphql?query=${encodeURIComponent(query)}`,
        headers: { accept, ...headers },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail });
      expect(response.headers["www-authenticate"]).toMatch(/^APIKey /);
    }
  });

  it("nothing runs without a key", async () => {
    const counter = countingOperation();
    const counting = await buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY }),
      operations: [counter.operation],
      logger: false,
    });
    const body = { query: "{ test { count { runs } } }" };
    await counting.inject({ method: "POST", url: "/graphql", payload: body });
    await counting.inject({
      method: "POST",
      url: "/graphql",
      payload: body,
      headers: { "x-api-key": "no" },
    });
    await counting.inject({ url: `/graphql?query=${encodeURIComponent(body.query)}` });
    expect(counter.runs()).toBe(0);
    const ok = await counting.inject({
      method: "POST",
      url: "/graphql",
      payload: body,
      headers: AUTH,
    });
    expect(ok.json()).toEqual({ data: { test: { count: { runs: 1 } } } });
    await counting.close();
  });

  it("GET and POST both work with the key; other methods are 405", async () => {
    const get = await app.inject({
      url: `/graphql?query=${encodeURIComponent(query)}`,
      headers: AUTH,
    });
    expect(get.json()).toEqual({ data: { __typename: "Query" } });
    const post = await graphql(app, query);
    expect(post.parsed).toEqual({ data: { __typename: "Query" } });
    const put = await app.inject({ method: "PUT", url: "/graphql", headers: AUTH });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe("GET, POST");
  });
});

describe("GraphiQL", () => {
  it("is served without a key to a browser, with every asset from the service itself", async () => {
    const page = await app.inject({
      url: "/graphql",
      headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toMatch(/script-src 'self'/);
    expect(page.body).not.toMatch(/https?:\/\//);
    expect(page.body).not.toMatch(/<script>/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    const start = await app.inject({ url: "/graphql/assets/start.js" });
    const workers = [...start.body.matchAll(/"(\/graphql\/assets\/[^"]+)"/g)].map(
      (m) => m[1] as string,
    );
    expect(workers).toHaveLength(3);
    for (const url of [...assets, ...workers]) {
      expect(url.startsWith("/graphql/assets/"), url).toBe(true);
      const asset = await app.inject({ url });
      expect(asset.statusCode, url).toBe(200);
      if (url.endsWith(".js")) {
        expect(asset.headers["content-type"]).toMatch(/^text\/javascript/);
        expect(asset.body).not.toMatch(/unpkg\.com|jsdelivr|cdnjs|googleapis/);
      }
    }
    expect(start.body).toContain('\\"X-API-Key\\": \\"\\"');
    expect((await app.inject({ url: "/graphql/assets/nope.js" })).statusCode).toBe(404);
  });

  it("its starting query is valid and runs", async () => {
    const start = await app.inject({ url: "/graphql/assets/start.js" });
    const settings = JSON.parse(/const settings = (.*?);\n/s.exec(start.body)?.[1] ?? "{}") as {
      defaultQuery: string;
      endpoint: string;
    };
    expect(settings.endpoint).toBe("/graphql");
    const response = await graphql(app, settings.defaultQuery);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.parsed.errors, response.body).toBeUndefined();
  });
});

describe("introspection", () => {
  it("works with a key, and the schema has every operation", async () => {
    const response = await graphql(app, getIntrospectionQuery({ descriptions: true }));
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    const schema = buildClientSchema(response.parsed.data as unknown as IntrospectionQuery);
    const query = schema.getQueryType();
    for (const operation of operations) {
      const { area, field } = fieldsOf(operation);
      const areaType = getNamedType(query?.getFields()[area]?.type);
      expect(String(areaType), area).toMatch(/Operations$/);
      expect(isObjectType(areaType) && areaType.getFields()[field], field).toBeTruthy();
    }
  });

  it("is refused without a key", async () => {
    const response = await graphql(app, getIntrospectionQuery(), undefined, {});
    expect(response.statusCode).toBe(401);
  });
});

describe("discovery", () => {
  it("a dropped-in module shows up in GraphQL with no other edit", async () => {
    const fixtures = fileURLToPath(new URL("./fixtures/operations/", import.meta.url));
    const extended = await loadOperations([DEFAULT_OPERATIONS_DIR, fixtures]);
    const echo = extended.find((o) => o.area === "extra" && o.name === "echo") as AnyOperation;
    const withFixture = await buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY }),
      operations: extended,
      logger: false,
    });
    const response = await graphql(
      withFixture,
      `{ extra { echo(n: 21) ${selectionFor(echo.output)} } }`,
    );
    await withFixture.close();
    expect(response.parsed).toEqual({ data: { extra: { echo: { n: 21, doubled: 42 } } } });
  });
});
