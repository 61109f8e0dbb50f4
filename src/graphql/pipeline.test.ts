import type { FastifyReply, FastifyRequest } from "fastify";
import { type GraphQLError, GraphQLError as GraphQLErrorClass, parse, Source } from "graphql";
import { beforeEach, describe, expect, it } from "vitest";
import { brokenOperation } from "../../test/fixtures/faulty-operations.js";
import { defineOperation, integer, text, z } from "../kit/index.js";
import { createBudget } from "./budget.js";
import { DEFAULT_GRAPHQL_LIMITS } from "./limits.js";
import { createPipeline, type GraphqlParams, type GraphqlResult, maskError } from "./pipeline.js";
import { preparedBytes } from "./prepared-cache.js";
import type { Charge } from "./quota.js";
import { buildGraphqlSchema } from "./schema.js";

let runs = 0;
const echo = defineOperation({
  area: "t",
  name: "echo",
  summary: "Echoes its text",
  description: "A fixture answering its text, counting its runs.",
  input: z.object({ text: text({ max: 100 }) }),
  output: z.object({ text: z.string() }),
  examples: [{ title: "echo", input: { text: "a" }, output: { text: "a" } }],
  handler: ({ text }) => {
    runs += 1;
    return { text };
  },
});
const heavy = defineOperation({
  area: "t",
  name: "heavy",
  summary: "Declares a cost",
  description: "A fixture whose declared work is n million digit operations.",
  input: z.object({ n: integer({ min: 0, max: 20 }) }),
  output: z.object({ n: z.int() }),
  examples: [{ title: "one", input: { n: 1 }, output: { n: 1 } }],
  cost: ({ n }) => ({ work: n * 1_000_000, bytes: 10 }),
  handler: ({ n }) => {
    runs += 1;
    return { n };
  },
});
const operations = [echo, heavy, brokenOperation];
const schema = buildGraphqlSchema(operations);
const TWO = 'query A { t { echo(text: "a") { text } } } query B { t { echo(text: "b") { text } } }';

function pipelineWith(charge?: Charge, preparedCacheBytes?: number) {
  const logged: unknown[] = [];
  const pipeline = createPipeline({
    schema,
    limits: DEFAULT_GRAPHQL_LIMITS,
    budget: createBudget(schema, operations),
    maskedMessage: "Unexpected error.",
    logMasked: (error) => logged.push(error),
    ...(charge ? { charge } : {}),
    ...(preparedCacheBytes ? { preparedCacheBytes } : {}),
  });
  return { pipeline, logged };
}

const contextFor = (method = "POST") => ({
  req: { method } as FastifyRequest,
  reply: {} as FastifyReply,
});

async function run(params: GraphqlParams, method = "POST", charge?: Charge) {
  return (await pipelineWith(charge).pipeline.run(params, contextFor(method))) as GraphqlResult;
}

/** The first error's message, code and HTTP extension. */
function refusal(result: GraphqlResult) {
  const error = result.errors?.[0] as GraphQLError;
  const { code, http } = error.extensions as { code: string; http?: object };
  return { message: error.message, code, http };
}

beforeEach(() => {
  runs = 0;
});

describe("each step refuses with yoga's code and status, before anything runs", () => {
  const many = Array.from({ length: 101 }, (_, i) => `f${i}: echo(text: "a") { text }`);
  it.each([
    {
      step: "text limits",
      params: { query: `{ t { echo(text: "${"x".repeat(40_000)}") { text } } }` },
      code: "LIMIT_EXCEEDED",
      http: { status: 400, spec: false },
    },
    {
      step: "parse",
      params: { query: "{ t { echo(" },
      code: "GRAPHQL_PARSE_FAILED",
      http: { status: 400, spec: true },
    },
    {
      step: "operation resolution: two operations, no name",
      params: { query: TWO },
      code: "OPERATION_RESOLUTION_FAILURE",
      http: { status: 400 },
    },
    {
      step: "operation resolution: an unknown name",
      params: { query: TWO, operationName: "C" },
      code: "OPERATION_RESOLUTION_FAILURE",
      http: { status: 400 },
    },
    {
      step: "validation: an unknown field",
      params: { query: "{ t { nope } }" },
      code: "GRAPHQL_VALIDATION_FAILED",
      http: { status: 400, spec: true },
    },
    {
      step: "validation: a mutation over POST",
      params: { query: "mutation { x }" },
      code: "GRAPHQL_VALIDATION_FAILED",
      http: { status: 400, spec: true },
    },
    {
      step: "validation: the service's limits",
      params: { query: `{ t { ${many.join(" ")} } }` },
      code: "LIMIT_EXCEEDED",
      http: { status: 400, spec: false },
    },
    {
      step: "variables: a required one missing",
      params: { query: "query ($s: String!) { t { echo(text: $s) { text } } }" },
      code: "BAD_USER_INPUT",
      http: { status: 400, spec: true },
    },
    {
      step: "variables: a value of the wrong type",
      params: {
        query: "query ($s: String!) { t { echo(text: $s) { text } } }",
        variables: { s: { a: 1 } },
      },
      code: "BAD_USER_INPUT",
      http: { status: 400, spec: true },
    },
    {
      step: "budget",
      params: { query: "{ t { a: heavy(n: 15) { n } b: heavy(n: 15) { n } } }" },
      code: "LIMIT_EXCEEDED",
      http: { status: 400, spec: false },
    },
  ])("$step: $code", async ({ params, code, http }) => {
    for (let round = 0; round < 2; round += 1) {
      const result = await run(params);
      expect(result.data).toBeUndefined();
      expect(refusal(result)).toMatchObject({ code, http });
    }
    expect(runs).toBe(0);
  });

  it("a mutation over GET is refused with 405 before validation, as yoga does", async () => {
    expect(refusal(await run({ query: "mutation { x }" }, "GET"))).toEqual({
      message: "Can only perform a mutation operation from a POST request.",
      code: "BAD_REQUEST",
      http: { status: 405, headers: { Allow: "POST" } },
    });
  });

  it("over the quota: 429 with Retry-After, charged the document's operation fields", async () => {
    const { charge, charged } = quota(5, 0);
    const query = '{ t { a: echo(text: "a") { text } b: echo(text: "b") { text } } }';
    const { pipeline } = pipelineWith(charge);
    // A new document, twice (kept from its second sight): the key's state is read (0
    // units), then its 2 fields are charged.
    for (let sight = 0; sight < 2; sight++) {
      expect((await pipeline.run({ query }, contextFor())).errors).toBeUndefined();
    }
    // Prepared: charged at once, and refused.
    const result = await pipeline.run({ query }, contextFor());
    expect(refusal(result)).toMatchObject({
      code: "RATE_LIMITED",
      http: { status: 429, headers: { "retry-after": "7" } },
    });
    expect(result.errors?.[0]?.message).toMatch(/this request asks for 2;/);
    expect(charged).toEqual([0, 2, 0, 2, 2]);
    expect(runs).toBe(4);
  });

  it("a key with units left is charged nothing for a document refused by validation or the budget", async () => {
    const { charge, charged } = quota(3, 0);
    const { pipeline } = pipelineWith(charge);
    for (const query of [
      "{ t { nope } }",
      "{ t { a: heavy(n: 15) { n } b: heavy(n: 15) { n } } }",
    ]) {
      const result = await pipeline.run({ query }, contextFor());
      expect(refusal(result).code).not.toBe("RATE_LIMITED");
    }
    // Each state read (0 units), nothing charged.
    expect(charged).toEqual([0, 0]);
    expect(runs).toBe(0);
  });

  it("a key over its quota is refused a new document before it is validated or compiled", async () => {
    const { charge, charged } = quota(3, 4);
    const { pipeline } = pipelineWith(charge);
    const many = Array.from({ length: 150 }, (_, i) => `f${i}: echo(text: "a") { text }`);
    // The first is over the field limit and names an unknown field: its 429 says it was
    // never validated. The units are counted on the parsed operation.
    for (const [query, units] of [
      [`{ t { ${many.join(" ")} nope } }`, 151],
      ['{ t { echo(text: "a") { text } } }', 1],
    ] as const) {
      const result = await pipeline.run({ query }, contextFor());
      expect(refusal(result)).toMatchObject({ code: "RATE_LIMITED", http: { status: 429 } });
      expect(result.errors?.[0]?.message).toMatch(`this request asks for ${units};`);
    }
    expect(charged).toEqual([0, 0]);
    expect(runs).toBe(0);
  });

  it("a key whose units left cannot cover a new document is refused it before validation", async () => {
    // A refused charge keeps none of its units: a key with 2 left keeps them however
    // many 3-field documents it sends, so "over quota" alone would never stop them.
    const { charge, charged } = quota(3, 1);
    const { pipeline } = pipelineWith(charge);
    for (let seed = 0; seed < 3; seed++) {
      const query = `{ t { a: echo(text: "${seed}") { text } b: nope c: nope } }`;
      const result = await pipeline.run({ query }, contextFor());
      expect(refusal(result)).toMatchObject({ code: "RATE_LIMITED", http: { status: 429 } });
      expect(result.errors?.[0]?.message).toMatch("this request asks for 3;");
    }
    expect(charged).toEqual([0, 0, 0]);
    expect(pipeline.preparedStats().texts).toBe(0);
  });
});

/**
 * A key's quota of `limit` units, `consumed` already, counted as rate-limiter-flexible
 * does: every charge is added, refused ones too, and a key is over once past its limit.
 */
function quota(limit: number, consumed: number) {
  const charged: number[] = [];
  const policy = { name: "per-key", limit, windowSeconds: 60 };
  const charge: Charge = async (_request, _reply, units) => {
    charged.push(units);
    consumed += units;
    const remaining = Math.max(0, limit - consumed);
    return { allowed: consumed <= limit, policy, remaining, resetSeconds: 7, failedOpen: false };
  };
  return { charge, charged };
}

/** A charge's state answered at once (no promise), as a counter in this process answers. */
function syncState(charged: number[], units: number, allowed = true) {
  charged.push(units);
  const policy = { name: "per-key", limit: 10, windowSeconds: 60 };
  return { allowed, policy, remaining: allowed ? 9 : 0, resetSeconds: 7, failedOpen: false };
}

describe("execution", () => {
  it("runs a prepared query synchronously, with its compiled serialiser", () => {
    const { pipeline } = pipelineWith();
    const result = pipeline.run(
      { query: "query ($s: String!) { t { echo(text: $s) { text } } }", variables: { s: "hi" } },
      contextFor(),
    ) as GraphqlResult;
    expect(result).not.toBeInstanceOf(Promise);
    expect(result.stringify?.(result)).toBe('{"data":{"t":{"echo":{"text":"hi"}}}}');
  });

  it("with a quota counted in this process, charges and runs a prepared query synchronously", async () => {
    const { charge: asyncCharge, charged } = quota(10, 0);
    // The counter's own state, answered at once, as `AccessControl.chargeNow` does locally.
    const charge: Charge = (request, reply, units) =>
      units === 0 ? asyncCharge(request, reply, units) : syncState(charged, units);
    const { pipeline } = pipelineWith(charge);
    const params = { query: '{ t { echo(text: "hi") { text } } }' };
    // Prepared from its second sight; before that, the state is read (a promise) first.
    for (let sight = 0; sight < 2; sight++) await pipeline.run(params, contextFor());
    const result = pipeline.run(params, contextFor()) as GraphqlResult;
    expect(result).not.toBeInstanceOf(Promise);
    expect(result.stringify?.(result)).toBe('{"data":{"t":{"echo":{"text":"hi"}}}}');
    expect(charged).toEqual([0, 1, 0, 1, 1]);
  });

  it("refuses a prepared query at once when a synchronous charge is refused", () => {
    const charged: number[] = [];
    // Units left to read (0), none to take: every charge of the document is refused.
    const charge: Charge = (_request, _reply, units) => syncState(charged, units, units === 0);
    const { pipeline } = pipelineWith(charge);
    const params = { query: '{ t { echo(text: "no") { text } } }' };
    for (let sight = 0; sight < 2; sight++) pipeline.run(params, contextFor());
    expect(pipeline.preparedStats().texts).toBe(1);
    const result = pipeline.run(params, contextFor()) as GraphqlResult;
    expect(result).not.toBeInstanceOf(Promise);
    expect(refusal(result)).toMatchObject({ code: "RATE_LIMITED", http: { status: 429 } });
    expect(runs).toBe(0);
  });

  it("runs the operation operationName selects, each with its own compiled form", async () => {
    const { pipeline } = pipelineWith();
    const texts = [];
    for (const operationName of ["A", "B", "A", "B"]) {
      for (const method of ["POST", "GET"]) {
        const result = await pipeline.run({ query: TWO, operationName }, contextFor(method));
        texts.push((result.data as { t: { echo: { text: string } } }).t.echo.text);
      }
    }
    expect(texts).toEqual(["a", "a", "b", "b", "a", "a", "b", "b"]);
  });

  it("masks an unexpected error and logs the original", async () => {
    const { pipeline, logged } = pipelineWith();
    const result = await pipeline.run(
      { query: '{ test { broken { value } } t { echo(text: "a") { text } } }' },
      contextFor(),
    );
    expect(result.data).toEqual({ test: { broken: null }, t: { echo: { text: "a" } } });
    expect(refusal(result)).toEqual({
      message: "Unexpected error.",
      code: "INTERNAL_SERVER_ERROR",
      http: undefined,
    });
    expect(JSON.stringify(result)).not.toContain("secret");
    // The original (the runner's fault for test/broken) is what the log gets, once.
    expect(logged).toHaveLength(1);
    expect((logged[0] as GraphQLError).message).toBe("test/broken failed");
  });

  it("a document within the budget runs", async () => {
    const result = await run({ query: "{ t { a: heavy(n: 5) { n } b: heavy(n: 5) { n } } }" });
    expect(result).toMatchObject({ data: { t: { a: { n: 5 }, b: { n: 5 } } } });
    expect(runs).toBe(2);
  });
});

describe("prepared documents", () => {
  /** `count` aliased echo fields: 1 + 2 × count fields selected. */
  const aliases = (seed: number, count: number) =>
    `{ t { ${Array.from({ length: count }, (_, i) => `e${i}: echo(text: "${seed}") { text }`).join(" ")} } }`;

  it("are kept within their byte budget, whatever their number", async () => {
    const one = preparedBytes(parse(aliases(0, 10)).tokenCount ?? 0, 21);
    const { pipeline } = pipelineWith(undefined, 3 * one + 1);
    for (let seed = 0; seed < 10; seed++) {
      for (let sight = 0; sight < 2; sight++) {
        expect(
          (await pipeline.run({ query: aliases(seed, 10) }, contextFor())).errors,
        ).toBeUndefined();
      }
    }
    expect(pipeline.preparedStats()).toEqual({ texts: 3, bytes: 3 * one });
  });

  it("are kept from their second sight: a document sent once leaves nothing behind", async () => {
    const { pipeline } = pipelineWith();
    for (let seed = 0; seed < 50; seed++) {
      expect(
        (await pipeline.run({ query: aliases(seed, 10) }, contextFor())).errors,
      ).toBeUndefined();
    }
    expect(pipeline.preparedStats()).toEqual({ texts: 0, bytes: 0 });
    await pipeline.run({ query: aliases(7, 10) }, contextFor());
    expect(pipeline.preparedStats().texts).toBe(1);
  });

  it("are charged by the fields they select: a larger document takes the room of several", async () => {
    const bytesOf = (query: string, fields: number) =>
      preparedBytes(parse(query).tokenCount ?? 0, fields);
    const small = bytesOf(aliases(10, 1), 3);
    const large = bytesOf(aliases(99, 100), 201);
    const { pipeline } = pipelineWith(undefined, large + 5 * small);
    for (let seed = 10; seed < 30; seed++) {
      await pipeline.run({ query: aliases(seed, 1) }, contextFor());
      await pipeline.run({ query: aliases(seed, 1) }, contextFor());
    }
    expect(pipeline.preparedStats().texts).toBeGreaterThan(15);
    await pipeline.run({ query: aliases(99, 100) }, contextFor());
    await pipeline.run({ query: aliases(99, 100) }, contextFor());
    expect(pipeline.preparedStats()).toEqual({ texts: 6, bytes: large + 5 * small });
  });

  it("a document over the whole budget runs, and is not kept", async () => {
    const { pipeline } = pipelineWith(undefined, 64 * 1024);
    const result = await pipeline.run({ query: aliases(1, 50) }, contextFor());
    expect(result.errors).toBeUndefined();
    expect(runs).toBe(50);
    expect(pipeline.preparedStats()).toEqual({ texts: 0, bytes: 0 });
  });
});

describe("lookup, which a hook may ask before the handler runs", () => {
  it("finds a document once prepared (from its second sight), by text and operation name", async () => {
    const { pipeline } = pipelineWith();
    expect(pipeline.lookup(TWO, "A")).toBeUndefined();
    await pipeline.run({ query: TWO, operationName: "A" }, contextFor());
    expect(pipeline.lookup(TWO, "A")).toBeUndefined();
    await pipeline.run({ query: TWO, operationName: "A" }, contextFor());
    expect(pipeline.lookup(TWO, "A")).toBeDefined();
    expect(pipeline.lookup(TWO, "B")).toBeUndefined();
    expect(pipeline.lookup(TWO, null)).toBeUndefined();
  });

  it("hands run what it found; run uses it only for its own text and operation", async () => {
    const { pipeline } = pipelineWith();
    const params = { query: TWO, operationName: "A" };
    for (let i = 0; i < 2; i++) await pipeline.run(params, contextFor());
    const found = pipeline.lookup(TWO, "A");
    const a = (await pipeline.run(params, contextFor(), found)) as GraphqlResult;
    expect(a.data).toEqual({ t: { echo: { text: "a" } } });
    const b = (await pipeline.run(
      { query: TWO, operationName: "B" },
      contextFor(),
      found,
    )) as GraphqlResult;
    expect(b.data).toEqual({ t: { echo: { text: "b" } } });
  });
});

describe("the query-text check adapters may ask for first", () => {
  it("refuses a text over the limits, and is free once the text is prepared", async () => {
    const { pipeline } = pipelineWith();
    const long = `{ t { echo(text: "${"x".repeat(40_000)}") { text } } }`;
    expect(pipeline.textProblem(long)?.extensions.code).toBe("LIMIT_EXCEEDED");
    const query = '{ t { echo(text: "a") { text } } }';
    expect(pipeline.textProblem(query)).toBeUndefined();
    await pipeline.run({ query }, contextFor());
    expect(pipeline.textProblem(query)).toBeUndefined();
  });
});

describe("maskError, written out so that yoga loads only when needed", () => {
  const source = new Source('{ t { echo(text: "a") { text } } }');
  const located = { source, positions: [6], path: ["t", "echo"] };
  it.each([
    ["a refusal", new GraphQLErrorClass("no", { extensions: { code: "BAD_USER_INPUT" } })],
    [
      "a refusal raised in a resolver",
      new GraphQLErrorClass("no", { ...located, originalError: new GraphQLErrorClass("no") }),
    ],
    [
      "a fault raised in a resolver",
      new GraphQLErrorClass("secret", { ...located, originalError: new Error("secret") }),
    ],
    [
      "a fault that asked for a status",
      new GraphQLErrorClass("secret", {
        ...located,
        originalError: new Error("secret"),
        extensions: { http: { status: 503 } },
      }),
    ],
    ["a thrown value that is no GraphQLError", new Error("secret")],
    ["a thrown string", "secret"],
  ])("answers %s as yoga's maskError does", async (_name, error) => {
    const yoga = await import("graphql-yoga");
    const ours = maskError(error, "Unexpected error.");
    const theirs = yoga.maskError(error, "Unexpected error.", false) as GraphQLError;
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
    expect(ours === error).toBe(theirs === error);
  });
});
