/**
 * An operator's folder outside the repo (OPERATIONS_DIRS) with one `.ts` and one `.js`
 * module, each importing the kit by the package's name, loaded into a started process:
 * the registry-driven checks run over whatever the process loaded (every example over
 * REST and over GraphQL, /openapi.json lists them, /docs serves). Faulty modules (one
 * divides by 3, one throws, one answers the wrong shape, one throws another copy of the
 * kit's NotFoundError) get their documented answers, and the process keeps serving.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathOf } from "../../src/core/path.js";
import type { AnyOperation } from "../../src/kit/define.js";
import { loadOperations } from "../../src/registry/loader.js";
import { fieldFor, fieldsOf } from "../graphql-helpers.js";
import { queryOf } from "../helpers.js";
import { ROOT, type Server, startServer, stopAll } from "./helpers.js";

const KEY = "operations-dirs-test-key";
const HEADERS = { "x-api-key": KEY };

/** The operator's modules, as they would write them. */
const MODULES: Record<string, string> = {
  "ext/mean.ts": `import { arithmeticFields, arithmeticResult, decimal, defineOperation, type Exact, list, z } from "utility-calculation-service/kit";

export default defineOperation({
  area: "ext",
  name: "mean",
  summary: "Arithmetic mean",
  description: "The sum of the numbers divided by their count (rounded to 50 digits when it does not terminate).",
  input: z.object({ numbers: list(decimal(), { min: 1, max: 100 }) }),
  output: z.object({ ...arithmeticFields, count: z.int() }),
  examples: [
    { title: "1 and 2", input: { numbers: ["1", "2"] }, output: { result: 1.5, decimal: "1.5", count: 2 } },
    { title: "1, 0 and 0", input: { numbers: ["1", "0", "0"] }, output: { result: 1 / 3, decimal: "0.${"3".repeat(50)}", count: 3 } },
  ],
  handler: ({ numbers }) => {
    const sum = numbers.reduce((total: Exact, n: Exact) => total.plus(n));
    return { ...arithmeticResult(sum.div(numbers.length)), count: numbers.length };
  },
});
`,
  "ext/divide.js": `import { arithmeticFields, arithmeticResult, decimal, defineOperation, z } from "utility-calculation-service/kit";

export default defineOperation({
  area: "ext",
  name: "divide",
  summary: "a divided by b",
  description: "Divides with the kit: exact when the quotient terminates.",
  input: z.object({ a: decimal(), b: decimal() }),
  output: z.object({ ...arithmeticFields }),
  examples: [{ title: "1 / 8", input: { a: "1", b: "8" }, output: { result: 0.125, decimal: "0.125" } }],
  handler: ({ a, b }) => arithmeticResult(a.div(b)),
});
`,
  "faulty/throws.js": `import { defineOperation, z } from "utility-calculation-service/kit";

// What a module with its own copy of the kit throws: the brand, not the class.
class ForeignNotFound extends Error {
  [Symbol.for("utility-calculation-service.not-found")] = true;
}

export default defineOperation({
  area: "faulty",
  name: "throws",
  summary: "Throws on request",
  description: "Throws whatever \`kind\` names; \`none\` answers.",
  input: z.object({ kind: z.enum(["none", "error", "status", "string", "foreign_not_found"]) }),
  output: z.object({ ok: z.boolean() }),
  examples: [{ title: "no fault", input: { kind: "none" }, output: { ok: true } }],
  handler: ({ kind }) => {
    if (kind === "error") throw new Error("secret internals");
    if (kind === "status") throw Object.assign(new Error("pick my status"), { statusCode: 418 });
    if (kind === "string") throw "a bare string";
    if (kind === "foreign_not_found") throw new ForeignNotFound("no such thing");
    return { ok: true };
  },
});
`,
  "faulty/wrong-shape.js": `import { defineOperation, z } from "utility-calculation-service/kit";

export default defineOperation({
  area: "faulty",
  name: "wrong-shape",
  summary: "Answers outside its schema on request",
  description: "With \`lie\`, answers a number where a string is due, or a promise.",
  input: z.object({ lie: z.enum(["no", "number", "promise"]) }),
  output: z.object({ value: z.string() }),
  examples: [{ title: "truthful", input: { lie: "no" }, output: { value: "ok" } }],
  handler: ({ lie }) =>
    lie === "number" ? { value: 42 } : lie === "promise" ? Promise.reject(new Error("later")) : { value: "ok" },
});
`,
};

let dir: string;
let server: Server;
let operations: AnyOperation[];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ucs-operations-"));
  expect(path.relative(ROOT, dir).startsWith("..")).toBe(true);
  for (const [file, text] of Object.entries(MODULES)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  server = await startServer({ API_KEYS: KEY, OPERATIONS_DIRS: dir }, { readyTimeoutMs: 60_000 });
  // The same modules, loaded here, drive the checks (as the in-process suites are driven).
  operations = await loadOperations([dir]);
}, 90_000);

afterAll(async () => {
  await stopAll();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const get = (url: string) => server.get(url, { headers: HEADERS });
const graphql = (query: string) =>
  fetch(`http://127.0.0.1:${server.port}/graphql`, {
    method: "POST",
    headers: { ...HEADERS, "content-type": "application/json" },
    body: JSON.stringify({ query }),
  }).then(async (response) => ({ status: response.status, body: await response.json() }));

describe("an operator's folder outside the repo", () => {
  it("loads every module of the folder (.ts and .js)", () => {
    expect(operations.map((o) => `${o.area}/${o.name}`).sort()).toEqual([
      "ext/divide",
      "ext/mean",
      "faulty/throws",
      "faulty/wrong-shape",
    ]);
  });

  it("answers every example over REST and over GraphQL, alongside the built-in operations", async () => {
    for (const operation of operations) {
      for (const example of operation.examples) {
        const rest = await get(`${pathOf(operation)}?${queryOf(example.input)}`);
        expect(rest.status, rest.body).toBe(200);
        expect(JSON.parse(rest.body)).toEqual(example.output);
        const { area, field } = fieldsOf(operation);
        const answer = await graphql(`{ ${fieldFor(operation, example.input)} }`);
        expect(answer.body.errors, JSON.stringify(answer.body)).toBeUndefined();
        expect(answer.body.data[area][field]).toEqual(example.output);
      }
    }
    expect((await get("/v1/math/sum?numbers=0.1,0.2")).status).toBe(200);
  });

  it("lists them in /openapi.json, and /docs serves", async () => {
    const doc = JSON.parse((await server.get("/openapi.json")).body) as {
      paths: Record<string, unknown>;
    };
    for (const operation of operations) expect(doc.paths).toHaveProperty([pathOf(operation)]);
    expect(doc.paths).toHaveProperty(["/v1/math/sum"]);
    expect((await server.get("/docs")).status).toBe(200);
  });
});

describe("faulty modules get their documented answers; the process serves on", () => {
  it.each([
    ["1 / 3: rounded to 50 digits", "/v1/ext/divide?a=1&b=3", 200, `0.${"3".repeat(50)}`],
    ["1 / 0: not a finite number", "/v1/ext/divide?a=1&b=0", 422, "not a finite number"],
    ["a thrown Error", "/v1/faulty/throws?kind=error", 500, "Internal Server Error"],
    ["an Error carrying a status", "/v1/faulty/throws?kind=status", 500, "Internal Server Error"],
    ["a thrown string", "/v1/faulty/throws?kind=string", 500, "Internal Server Error"],
    [
      "another copy's NotFoundError",
      "/v1/faulty/throws?kind=foreign_not_found",
      404,
      "no such thing",
    ],
    ["the wrong shape", "/v1/faulty/wrong-shape?lie=number", 500, "Internal Server Error"],
    ["a rejected promise", "/v1/faulty/wrong-shape?lie=promise", 500, "Internal Server Error"],
  ])("%s", async (_what, url, status, contains) => {
    const response = await get(url);
    expect(response.status, response.body).toBe(status);
    expect(response.body).toContain(contains);
    expect(response.body).not.toContain("secret internals");
    expect((await get("/v1/math/sum?numbers=1,2")).status).toBe(200);
  });

  it("over GraphQL too: each fault fails its own field, the others answer", async () => {
    const answer = await graphql(
      `{ a: faulty { throws(kind: error) { ok } } b: faulty { wrongShape(lie: number) { value } } c: faulty { throws(kind: foreign_not_found) { ok } } d: ext { divide(a: "1", b: "3") { decimal } } math { sum(numbers: ["1", "2"]) { decimal } } }`,
    );
    const codes = Object.fromEntries(
      (answer.body.errors as { path: string[]; extensions: { code: string } }[]).map((e) => [
        e.path[0],
        e.extensions.code,
      ]),
    );
    expect(codes).toEqual({
      a: "INTERNAL_SERVER_ERROR",
      b: "INTERNAL_SERVER_ERROR",
      c: "NOT_FOUND",
    });
    expect(answer.body.data.d.divide.decimal).toBe(`0.${"3".repeat(50)}`);
    expect(answer.body.data.math.sum.decimal).toBe("3");
  });

  it("is still the same process, and healthy", async () => {
    expect(server.running).toBe(true);
    expect((await server.get("/health")).status).toBe(200);
  });
});
