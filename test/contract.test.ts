/**
 * Registry-driven contract tests: every operation's examples answer as documented over
 * HTTP, and generated bad values for every parameter answer 422 at that parameter,
 * never 5xx. A new operation module is covered here with no edit.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeParam } from "../src/kit/params.js";
import { BOUND_KEYS, badValuesFor, equivalentSpellings } from "./bad-values.js";
import { AUTH, allOperations, queryOf, testApp, urlOf } from "./helpers.js";

const operations = await allOperations();
let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

/** No body ever carries these, whatever the request. */
function assertCleanBody(body: string): void {
  expect(body).not.toMatch(/NaN|Infinity|\bat .+\.(?:ts|js):\d+/);
}

describe.each(
  operations.map((operation) => [`${operation.area}/${operation.name}`, operation] as const),
)("%s", (_id, operation) => {
  it.each(operation.examples.map((example) => [example.title, example] as const))(
    "example: %s",
    async (_title, example) => {
      const response = await app.inject({
        url: urlOf(operation, queryOf(example.input)),
        headers: AUTH,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(response.json()).toEqual(example.output);
      assertCleanBody(response.body);
    },
  );

  const base = (operation.examples[0]?.input ?? {}) as Record<string, unknown>;
  const cases = Object.entries(operation.input.shape).flatMap(([name, schema]) => {
    const param = describeParam(schema);
    const example = base[name] ?? operation.examples.find((e) => name in e.input)?.input[name];
    const valid = example === undefined ? ["1"] : [example].flat().map(String);
    const bad = badValuesFor(param, valid).map(
      (b) =>
        [name, b.why, b.raw ? b.values : b.values.map(encodeURIComponent), b.raw === true] as const,
    );
    if (param.required) bad.push([name, "missing", [], false]);
    return bad;
  });

  it.each(cases)("bad %s (%s) → 422 at that parameter", async (name, _why, values, spelled) => {
    const rest = { ...base };
    delete rest[name];
    const query = [queryOf(rest), ...values.map((v) => `${encodeURIComponent(name)}=${v}`)]
      .filter(Boolean)
      .join("&");
    const response = await app.inject({ url: urlOf(operation, query), headers: AUTH });
    expect(response.statusCode, response.body).toBe(422);
    const { detail } = response.json() as {
      detail: { loc: string[]; msg: string; type: string; ctx?: Record<string, unknown> }[];
    };
    expect(detail.length).toBeGreaterThan(0);
    for (const problem of detail) {
      // Bounds are JSON numbers for decimals and integers alike, as FastAPI sends them.
      for (const key of BOUND_KEYS) {
        if (problem.ctx && key in problem.ctx) expect(typeof problem.ctx[key]).toBe("number");
      }
    }
    for (const problem of detail) {
      expect(problem).toEqual(
        expect.objectContaining({
          loc: expect.any(Array),
          msg: expect.any(String),
          type: expect.any(String),
        }),
      );
    }
    expect(
      detail.some((p) => p.loc[0] === "query" && p.loc[1] === name),
      response.body,
    ).toBe(true);
    if (spelled) {
      // Refused for its spelling, at that parameter: never decoded into U+FFFD and accepted.
      expect(
        detail.some(
          (p) =>
            p.loc[1] === name &&
            p.type === "value_error" &&
            p.msg.includes("percent-encoded UTF-8"),
        ),
        response.body,
      ).toBe(true);
    }
    assertCleanBody(response.body);
  });

  const spellings = Object.entries(operation.input.shape).flatMap(([name, schema]) =>
    equivalentSpellings(describeParam(schema)).map(({ raw, value }) => [name, raw, value] as const),
  );
  it.each(spellings)("%s=%s reads as %s", async (name, raw, value) => {
    const rest = { ...base };
    delete rest[name];
    const spelled = await app.inject({
      url: urlOf(
        operation,
        [queryOf(rest), `${name}=${encodeURIComponent(raw)}`].filter(Boolean).join("&"),
      ),
      headers: AUTH,
    });
    const canonical = await app.inject({
      url: urlOf(operation, queryOf({ ...rest, [name]: value })),
      headers: AUTH,
    });
    expect(canonical.statusCode, canonical.body).toBe(200);
    expect(spelled.statusCode, spelled.body).toBe(200);
    expect(spelled.body).toBe(canonical.body);
  });

  it("an unknown parameter is a 422 extra_forbidden", async () => {
    const response = await app.inject({
      url: urlOf(operation, [queryOf(base), "noSuchParameter=1"].filter(Boolean).join("&")),
      headers: AUTH,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toContainEqual(
      expect.objectContaining({ loc: ["query", "noSuchParameter"], type: "extra_forbidden" }),
    );
  });
});

describe("the registry", () => {
  // The contract's operations, named once: more may be loaded (new modules, OPERATIONS_DIRS).
  it("serves every operation the contract names", () => {
    const ids = operations.map((o) => `${o.area}/${o.name}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        "case/detect",
        "crypto/checksum/md5",
        "datetime/is-leap-year",
        "finance/simple-interest",
        "fun/would-you-rather",
        "hash/hmac-md5",
        "ip/supernet",
        "math/is-between",
        "math/nth-root",
        "math/subtract",
        "math/sum",
        "misc/fizzbuzz",
        "misc/status-code",
        "stats/product",
        "stats/range",
        "text/sentiment",
      ]),
    );
  });
});

describe("a single-valued parameter given twice", () => {
  it("is one problem at that parameter, not also 'Field required'", async () => {
    const app = await testApp();
    const response = await app.inject({ url: "/v1/math/subtract?a=1&a=2&b=0", headers: AUTH });
    await app.close();
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([
      {
        loc: ["query", "a"],
        msg: "Value error, the parameter must be given once, not 2 times",
        type: "value_error",
      },
    ]);
  });
});
