/**
 * Recipes through the service (API.md §8): `POST /v1/recipes` behind the access layer
 * (key, scopes, quota, usage), the MCP tool `run_recipe` and `ucs recipe`; the contract's
 * example answers as written on each; and recipes generated from every operation's
 * examples, chained pairwise wherever an output field's JSON type fits a parameter.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ManagedKeys, openManagedKeys } from "../src/access/keys/managed.js";
import { buildApp } from "../src/app.js";
import { runCli } from "../src/cli/cli.js";
import { loadConfig } from "../src/config.js";
import { pathOf } from "../src/core/path.js";
import { checkRecipe, recipeBook, runRecipe } from "../src/core/recipes.js";
import { execute, InvalidInputError, NotFoundError } from "../src/core/runner.js";
import type { AnyOperation } from "../src/kit/define.js";
import { describeParam, type ParamDescription } from "../src/kit/params.js";
import { RECIPE_EXAMPLE } from "../src/rest/recipes-openapi.js";
import { allOperations, queryOf, TEST_KEY } from "./helpers.js";

const operations = await allOperations();
type Json = Record<string, unknown>;

let managed: ManagedKeys;
let app: FastifyInstance;
beforeAll(async () => {
  managed = await openManagedKeys(
    { dataDir: mkdtempSync(join(tmpdir(), "ucs-recipes-")), databaseUrl: undefined },
    { warn() {} },
  );
  app = await buildApp({
    config: loadConfig({ API_KEYS: TEST_KEY, RATE_LIMIT: "1000", AUTH_FAILURE_LIMIT: "0" }),
    operations,
    logger: false,
    managedKeys: managed,
  });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await managed?.close();
});

async function createKey(scopes: string[], limit = 100) {
  const created = await managed.store.create({
    name: `recipes ${scopes.join(",")}`,
    scopes,
    plan: { limit, windowSeconds: 3600 },
  });
  await managed.directory.refresh();
  return created;
}

const post = (body: unknown, key: string | null = TEST_KEY, query = "") =>
  app.inject({
    method: "POST",
    url: `/v1/recipes${query}`,
    headers: key === null ? {} : { "x-api-key": key },
    payload: body as Json,
  });

const remaining = async (key: string) =>
  (await app.inject({ url: "/v1/me", headers: { "x-api-key": key } })).json().remaining as number;

function mcp(key: string, params: Json) {
  return app.inject({
    method: "POST",
    url: "/mcp",
    headers: {
      "x-api-key": key,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
    },
    payload: { jsonrpc: "2.0", id: 1, method: "tools/call", params },
  });
}

/** The contract example's answer as written: each step's output as REST answers it alone. */
async function contractAnswer(): Promise<Json> {
  const get = async (url: string) =>
    (await app.inject({ url, headers: { "x-api-key": TEST_KEY } })).json();
  const total = await get("/v1/math/sum?numbers=0.1,0.2,0.7");
  const root = await get(`/v1/math/nth-root?number=${total.decimal}&degree=2`);
  const digest = await get(`/v1/crypto/checksum/md5?text=${root.decimal}`);
  return {
    steps: [
      { id: "total", op: "math/sum", status: 200, output: total },
      { id: "root", op: "math/nth-root", status: 200, output: root },
      { id: "digest", op: "crypto/checksum/md5", status: 200, output: digest },
    ],
  };
}

describe("the contract example answers as written", () => {
  it("through REST", async () => {
    const response = await post(RECIPE_EXAMPLE);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.json()).toEqual(await contractAnswer());
  });

  it("as the OpenAPI document's example", async () => {
    const doc = (await app.inject({ url: "/openapi.json" })).json();
    const examples = doc.paths["/v1/recipes"].post.responses["200"].content["application/json"]
      .examples as Record<string, { value: unknown }>;
    expect(examples.contract?.value).toEqual(await contractAnswer());
  });

  it("through MCP's run_recipe", async () => {
    const response = await mcp(TEST_KEY, { name: "run_recipe", arguments: RECIPE_EXAMPLE });
    const result = response.json().result;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(await contractAnswer());
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  });

  it("through `ucs recipe FILE` and `ucs recipe -`", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ucs-recipe-cli-")), "recipe.json");
    writeFileSync(file, JSON.stringify(RECIPE_EXAMPLE));
    for (const [source, stdin] of [
      [file, undefined],
      ["-", Readable.from([JSON.stringify(RECIPE_EXAMPLE)])],
    ] as const) {
      let stdout = "";
      let stderr = "";
      const code = await runCli(["recipe", source, "--json"], operations, {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
        env: {},
        ...(stdin ? { stdin } : {}),
      });
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toEqual(await contractAnswer());
    }
  });
});

describe("POST /v1/recipes over HTTP", () => {
  it.each([
    ["no key", null],
    ["a wrong key", "not-a-key"],
  ])("answers 401 to %s, whatever the body", async (_case, key) => {
    const response = await post({ steps: [] }, key);
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toBeDefined();
  });

  it.each([
    ["an unknown query parameter", "?x=1", [["query", "x"], "extra_forbidden"]],
    ["dryRun that is not a boolean", "?dryRun=maybe", [["query", "dryRun"], "bool_parsing"]],
  ])("answers 422 to %s", async (_case, query, [loc, type]) => {
    const response = await post(RECIPE_EXAMPLE, TEST_KEY, query);
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([expect.objectContaining({ loc, type })]);
  });

  it("answers a body that is not JSON with the service's 400 and 415", async () => {
    const broken = await app.inject({
      method: "POST",
      url: "/v1/recipes",
      headers: { "x-api-key": TEST_KEY, "content-type": "application/json" },
      payload: "{",
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ detail: expect.any(String) });
    const text = await app.inject({
      method: "POST",
      url: "/v1/recipes",
      headers: { "x-api-key": TEST_KEY, "content-type": "application/xml" },
      payload: "<steps/>",
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ detail: expect.any(String) });
  });

  it("answers a missing body 422 and GET 405", async () => {
    const empty = await app.inject({
      method: "POST",
      url: "/v1/recipes",
      headers: { "x-api-key": TEST_KEY },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail[0]).toMatchObject({ loc: ["body"], type: "dict_type" });
    const get = await app.inject({ url: "/v1/recipes", headers: { "x-api-key": TEST_KEY } });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe("POST");
  });
});

/** Calculations counted so far through REST (`calculations_total{gateway="rest"}`). */
async function restCalculations(): Promise<number> {
  const text = (await app.inject({ url: "/metrics", headers: { "x-api-key": TEST_KEY } })).body;
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("calculations_total{") && line.includes('gateway="rest"')) {
      total += Number(line.slice(line.lastIndexOf(" ") + 1));
    }
  }
  return total;
}

describe("a refused recipe runs nothing", () => {
  it("counts no calculation for a 422 or a 403, and one per step run", async () => {
    const { secret } = await createKey(["math"]);
    const before = await restCalculations();
    expect((await post({ steps: [...RECIPE_EXAMPLE.steps, { id: "1" }] })).statusCode).toBe(422);
    expect((await post(RECIPE_EXAMPLE, secret)).statusCode).toBe(403);
    expect((await post(RECIPE_EXAMPLE, TEST_KEY, "?dryRun=true")).statusCode).toBe(200);
    expect(await restCalculations()).toBe(before);
    expect((await post(RECIPE_EXAMPLE)).statusCode).toBe(200);
    expect(await restCalculations()).toBe(before + 3);
  });
});

describe("access: scopes, quota and usage", () => {
  it("a step out of the key's scopes refuses the whole recipe with 403; nothing runs or is charged", async () => {
    const { secret, record } = await createKey(["math"]);
    const before = await remaining(secret);
    const response = await post(RECIPE_EXAMPLE, secret);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      detail: "This API key's scopes do not include crypto/checksum/md5",
    });
    // Before the recipe is judged, as a REST route asks scopes before the input.
    const invalid = await post({ steps: [...RECIPE_EXAMPLE.steps, { id: "x" }] }, secret);
    expect(invalid.statusCode).toBe(403);
    expect(await remaining(secret)).toBe(before);
    // In scope, the same key runs a recipe.
    const inScope = await post({ steps: RECIPE_EXAMPLE.steps.slice(0, 2) }, secret);
    expect(inScope.statusCode).toBe(200);
    await managed.usage.flush();
    const rows = await managed.store.usage(record.id, "2000-01-01", "2100-01-01");
    expect(rows.map((row) => row.operation).sort()).toEqual(["math/nth-root", "math/sum"]);
  });

  it("charges a unit per step, counts each step as a call of its operation; 422 and dry runs are free", async () => {
    const { secret, record } = await createKey(["*"], 100);
    const start = await remaining(secret);
    const ran = await post(RECIPE_EXAMPLE, secret);
    expect(ran.statusCode).toBe(200);
    expect(ran.headers.ratelimit).toMatch(new RegExp(`r=${start - 3}`));
    expect(await remaining(secret)).toBe(start - 3);
    const refused = await post({ steps: [{ id: "a", op: "math/sum", args: {} }] }, secret);
    expect(refused.statusCode).toBe(422);
    const priced = await post(RECIPE_EXAMPLE, secret, "?dryRun=true");
    expect(priced.statusCode).toBe(200);
    expect(priced.json()).toEqual({
      units: 3,
      steps: RECIPE_EXAMPLE.steps.map(({ id, op }) => ({ id, op, units: 1 })),
    });
    expect(await remaining(secret)).toBe(start - 3);
    // A step that fails, and one not run (424), are still steps of the recipe: charged.
    const failing = await post(
      {
        steps: [
          { id: "r", op: "math/nth-root", args: { number: "-1", degree: 2 } },
          { id: "h", op: "crypto/checksum/md5", args: { text: { $ref: "r.decimal" } } },
        ],
      },
      secret,
    );
    expect(failing.json().steps.map((step: Json) => step.status)).toEqual([422, 424]);
    expect(await remaining(secret)).toBe(start - 5);
    await managed.usage.flush();
    const rows = await managed.store.usage(record.id, "2000-01-01", "2100-01-01");
    expect(Object.fromEntries(rows.map((row) => [row.operation, [row.calls, row.units]]))).toEqual({
      "math/sum": [1, 1],
      "math/nth-root": [2, 2],
      "crypto/checksum/md5": [2, 2],
    });
  });

  it("refuses with 429, running nothing, a recipe of more steps than the key has units", async () => {
    const { secret } = await createKey(["*"], 2);
    const response = await post(RECIPE_EXAMPLE, secret);
    expect(response.statusCode).toBe(429);
    expect(response.headers["retry-after"]).toBeDefined();
    expect(await remaining(secret)).toBe(2);
    expect((await post({ steps: RECIPE_EXAMPLE.steps.slice(0, 2) }, secret)).statusCode).toBe(200);
  });

  it("MCP: run_recipe charges a unit per step; a step out of scope refuses the call", async () => {
    const { secret } = await createKey(["math"]);
    const before = await remaining(secret);
    const refused = (await mcp(secret, { name: "run_recipe", arguments: RECIPE_EXAMPLE })).json();
    expect(refused.result.isError).toBe(true);
    expect(refused.result.content[0].text).toMatch(/crypto\/checksum\/md5/);
    expect(await remaining(secret)).toBe(before - 1);
    const ran = (
      await mcp(secret, {
        name: "run_recipe",
        arguments: { steps: RECIPE_EXAMPLE.steps.slice(0, 2) },
      })
    ).json();
    expect(ran.result.structuredContent.steps.map((step: Json) => step.status)).toEqual([200, 200]);
    expect(await remaining(secret)).toBe(before - 3);
    const invalid = (
      await mcp(secret, { name: "run_recipe", arguments: { steps: [{ id: "1" }] } })
    ).json();
    expect(invalid.result.isError).toBe(true);
    expect(JSON.parse(invalid.result.content[0].text).detail[0].loc).toEqual([
      "arguments",
      "steps",
      "0",
      "id",
    ]);
  });
});

// ---------------------------------------------------------------------------------------
// Generated recipes: every operation's first example, each of its output fields (and the
// first item of a list) fed to every parameter of every operation whose type takes it.

interface Field {
  path: string;
  value: unknown;
}

/** The fields of an example's output a reference can reach: top-level, and a list's first item. */
function fieldsOf(output: unknown): Field[] {
  if (typeof output !== "object" || output === null) return [];
  const fields: Field[] = [];
  for (const [name, value] of Object.entries(output)) {
    fields.push({ path: name, value });
    if (Array.isArray(value) && value.length > 0)
      fields.push({ path: `${name}.0`, value: value[0] });
  }
  return fields;
}

/** Whether a JSON `value` has the type a parameter takes (not whether it is valid there). */
function typeFits(param: ParamDescription, value: unknown): boolean {
  switch (param.kind) {
    case "decimal":
      return typeof value === "string" || typeof value === "number";
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "string":
    case "enum":
      return typeof value === "string";
    case "list":
      return (
        Array.isArray(value) &&
        value.every((item) => param.item !== undefined && typeFits(param.item, item))
      );
  }
}

/** What REST's runner answers for `input` alone: the oracle a chained step must match. */
function alone(operation: AnyOperation, input: Json): { status: number; body: unknown } {
  try {
    return { status: 200, body: execute(operation, input) };
  } catch (error) {
    if (error instanceof InvalidInputError) return { status: 422, body: error.problems };
    if (error instanceof NotFoundError) return { status: 404, body: error.message };
    throw error;
  }
}

/** Whether a step's 422 is the recipe's shared budget refusing it, not its input. */
function sharesOutBudget(detail: unknown): boolean {
  return (
    Array.isArray(detail) &&
    detail.length === 1 &&
    /the recipe.s steps together.*one request may ask for at most/.test(
      String((detail[0] as { msg?: unknown }).msg),
    )
  );
}

const withExamples = operations.filter((operation) => operation.examples.length > 0);
const book = recipeBook(operations);
const keyOf = (operation: AnyOperation) => `${operation.area}/${operation.name}`;

describe("generated recipes: each example's outputs chained into every parameter they fit", () => {
  it.each(withExamples.map((operation) => [keyOf(operation), operation] as const))(
    "%s feeding every operation",
    (_name, first) => {
      const example = first.examples[0] as { input: Json; output: unknown };
      let chained = 0;
      for (const field of fieldsOf(example.output)) {
        for (const second of withExamples) {
          const base = (second.examples[0] as { input: Json }).input;
          for (const [name, schema] of Object.entries(second.input.shape)) {
            const param = describeParam(schema);
            if (!typeFits(param, field.value)) continue;
            const body = {
              steps: [
                { id: "first", op: keyOf(first), args: example.input },
                {
                  id: "second",
                  op: keyOf(second),
                  args: { ...base, [name]: { $ref: `first.${field.path}` } },
                },
              ],
            };
            const check = checkRecipe(book, body, { source: "body" });
            const where = `${keyOf(first)}.${field.path} → ${keyOf(second)}(${name})`;
            expect(check.problems, where).toEqual([]);
            const { answer } = runRecipe(book, check.recipe as never, execute, (error) => {
              throw error;
            });
            const [one, two] = answer.steps;
            // The first step answers its example; the second what its operation answers
            // for the value passed, exactly (decimals given as numbers become their text).
            expect(one, where).toEqual({
              id: "first",
              op: keyOf(first),
              status: 200,
              output: example.output,
            });
            const asText = (value: unknown) => (typeof value === "number" ? String(value) : value);
            const passed =
              param.kind === "decimal"
                ? asText(field.value)
                : param.kind === "list" &&
                    param.item?.kind === "decimal" &&
                    Array.isArray(field.value)
                  ? field.value.map(asText)
                  : field.value;
            const expected = alone(second, { ...base, [name]: passed });
            if (two?.status === 422 && sharesOutBudget(two.detail)) {
              // The recipe's one budget: a step costly alone (password-strength declares all
              // of it) does not fit beside the other step's cost, whatever its input.
              chained++;
              continue;
            }
            expect(two?.status, where).toBe(expected.status);
            if (expected.status === 200) expect(two?.output, where).toEqual(expected.body);
            else if (expected.status === 422) {
              // Where and what: a referenced value is checked as JSON, whose problems may
              // leave out REST's ctx.
              const bare = (problems: unknown) =>
                (problems as { loc: string[]; msg: string; type: string }[]).map(
                  ({ loc, msg, type }) => ({ loc, msg, type }),
                );
              expect(bare(two?.detail), where).toEqual(
                bare(expected.body).map((problem) => ({
                  ...problem,
                  loc: ["body", "steps", "1", "args", ...problem.loc],
                })),
              );
            }
            chained++;
          }
        }
      }
      // Every output with a text, a number or a list among its fields feeds something.
      const scalars = fieldsOf(example.output).some(
        (field) => ["string", "number"].includes(typeof field.value) || Array.isArray(field.value),
      );
      if (scalars) {
        expect(chained, `${keyOf(first)}: no output field fits any parameter`).toBeGreaterThan(0);
      }
    },
  );

  it("REST answers a generated chain as the runner does", async () => {
    const body = {
      steps: [
        { id: "net", op: "ip/supernet", args: { networks: ["10.0.0.0/24", "10.0.1.0/24"] } },
        { id: "fb", op: "misc/fizzbuzz", args: { end: { $ref: "net.prefixLength" } } },
      ],
    };
    const response = await post(body);
    const fb = operations.find((operation) => keyOf(operation) === "misc/fizzbuzz") as AnyOperation;
    const direct = await app.inject({
      url: `${pathOf(fb)}?${queryOf({ end: 23 })}`,
      headers: { "x-api-key": TEST_KEY },
    });
    expect(response.json().steps[1].output).toEqual(direct.json());
  });
});
