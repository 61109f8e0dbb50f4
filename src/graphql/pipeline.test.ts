import type { FastifyReply, FastifyRequest } from "fastify";
import { type GraphQLError, GraphQLError as GraphQLErrorClass, Source } from "graphql";
import { beforeEach, describe, expect, it } from "vitest";
import { brokenOperation } from "../../test/fixtures/faulty-operations.js";
import { defineOperation, integer, text, z } from "../kit/index.js";
import { createBudget } from "./budget.js";
import { DEFAULT_GRAPHQL_LIMITS } from "./limits.js";
import { createPipeline, type GraphqlParams, type GraphqlResult, maskError } from "./pipeline.js";
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

function pipelineWith(charge?: Charge) {
  const logged: unknown[] = [];
  const pipeline = createPipeline({
    schema,
    limits: DEFAULT_GRAPHQL_LIMITS,
    budget: createBudget(schema, operations),
    maskedMessage: "Unexpected error.",
    logMasked: (error) => logged.push(error),
    ...(charge ? { charge } : {}),
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
    const charged: number[] = [];
    const charge: Charge = async (_request, _reply, units) => {
      charged.push(units);
      const policy = { name: "per-key", limit: 1, windowSeconds: 60 };
      return { allowed: false, policy, remaining: 0, resetSeconds: 7, failedOpen: false };
    };
    const result = await run(
      { query: '{ t { a: echo(text: "a") { text } b: echo(text: "b") { text } } }' },
      "POST",
      charge,
    );
    expect(refusal(result)).toMatchObject({
      code: "RATE_LIMITED",
      http: { status: 429, headers: { "retry-after": "7" } },
    });
    expect(charged).toEqual([2]);
    expect(runs).toBe(0);
  });
});

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
