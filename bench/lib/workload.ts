/**
 * What each benchmark target sends, built from the registry (so a new operation joins the
 * mix with no edit here), and the one-off check that every request of it answers as it
 * should before anything is measured.
 */
import { isDeepStrictEqual } from "node:util";
import { queryOf } from "../../scripts/lib/query.js";
import { pathOf } from "../../src/core/path.js";
import { exampleQuery } from "../../src/graphql/examples.js";
import { buildGraphqlSchema } from "../../src/graphql/schema.js";
import type { AnyOperation } from "../../src/kit/define.js";

export const API_KEY = "bench-key-0123456789abcdefghijklmn";

export type TargetName =
  | "raw"
  | "raw-10us"
  | "rest-sum"
  | "rest-mix"
  | "rest-10"
  | "graphql-1"
  | "graphql-10"
  | "graphql-10-sum"
  | "rest-sum-workers2"
  | "mcp-sum"
  | "bare-fastify"
  | "bare-fastify-rate-limit"
  | "bare-fastify-rate-limit-log"
  | "fastapi"
  | "rest-sum-warn"
  | "rest-sum-managed";

/** Which process answers a target. */
export type ServerName =
  | "raw"
  | "raw-10us"
  | "service"
  | "workers2"
  | "bare-fastify"
  | "bare-fastify-rate-limit"
  | "bare-fastify-rate-limit-log"
  | "fastapi"
  | "service-warn"
  | "service-mix";

/**
 * The quota of every service row and of bare fastify + @fastify/rate-limit, the server's
 * (RATE_LIMIT, RATE_LIMIT_WINDOW) and the managed key's plan alike: every request takes
 * the quota path, and it never refuses a bench run.
 */
export const BENCH_QUOTA = { limit: 1_000_000_000, windowSeconds: 60 } as const;

/** What every answer on the quota path carries: the quota it was charged to. */
const QUOTA_POLICY = new RegExp(`;q=${BENCH_QUOTA.limit};w=${BENCH_QUOTA.windowSeconds}$`);

/** CPU time the yardstick server spends per request (bench/raw-server.mjs WORK_US). */
export const YARDSTICK_WORK_US = 10;

/** Whether a server is one of the bare node:http ones (no service behind it). */
export const isBareServer = (server: ServerName) => server === "raw" || server === "raw-10us";

/**
 * The frameworks the service is compared with, serving REST sum's request with a key check,
 * query validation and a float sum: fastify alone (bench/bare-fastify.mjs), the same with
 * @fastify/rate-limit charging each key (as the service ships: a quota per key), and
 * FastAPI (bench/fastapi_app.py, run only when the machine's python3 has fastapi and uvicorn).
 */
export const isFrameworkServer = (server: ServerName) =>
  server === "bare-fastify" ||
  server === "bare-fastify-rate-limit" ||
  server === "bare-fastify-rate-limit-log" ||
  server === "fastapi";

export interface BenchRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * What the answer must hold, when known: every field listed, deep-equal; an answer may carry
   * more (MCP's `_meta` quota, whose `remaining` changes with each call).
   */
  expect?: unknown;
  /** For GraphQL: the answer's `data` must have this many non-null operation fields. */
  graphqlFields?: number;
  /** A header the answer must carry, its value matching. */
  expectHeader?: { name: string; value: RegExp };
}

export interface Workload {
  name: TargetName;
  server: ServerName;
  description: string;
  /** Calculations one request asks for (operation fields, for GraphQL). */
  calculationsPerRequest: number;
  /** Cycled through by every connection, in order. */
  requests: BenchRequest[];
  /**
   * Sent with a managed key, made through the admin API once the server is up (withKey),
   * instead of API_KEY.
   */
  managedKey?: boolean;
}

const API_KEY_HEADER = "x-api-key";
const AUTH = { [API_KEY_HEADER]: API_KEY };
const SUM_ANSWER = { result: 6, decimal: "6", count: 3 };
export const SUM_PATH = "/v1/math/sum?numbers=1,2,3";

function graphqlRequest(query: string, fields: number): BenchRequest {
  return {
    method: "POST",
    path: "/graphql",
    headers: { ...AUTH, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query }),
    graphqlFields: fields,
  };
}

/** How many operations the GraphQL batch runs (the first ones in registry order). */
export const BATCH_SIZE = 10;

export const GRAPHQL_SUM_QUERY =
  '{ math { sum(numbers: ["1","2","3"]) { result decimal count } } }';

/** The same calculation as REST sum, ten times in one request (aliases): like for like. */
export const GRAPHQL_TEN_SUMS_QUERY = `{ ${Array.from(
  { length: BATCH_SIZE },
  (_, i) => `s${i}: math { sum(numbers: ["1","2","3"]) { result decimal count } }`,
).join(" ")} }`;

/** REST sum's calculation as one MCP `tools/call` (stateless Streamable HTTP, no session). */
export const MCP_SUM_CALL = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "math_sum", arguments: { numbers: ["1", "2", "3"] } },
};

/** Every target's requests, for `operations` (the registry). */
export function buildWorkloads(operations: readonly AnyOperation[]): Workload[] {
  if (operations.length < BATCH_SIZE) {
    throw new Error(
      `the GraphQL batch needs ${BATCH_SIZE} operations; the registry has ${operations.length}`,
    );
  }
  // Every service row runs with a per-key quota, as shipped: its answers say so.
  const restSum: BenchRequest = {
    method: "GET",
    path: SUM_PATH,
    headers: AUTH,
    expect: SUM_ANSWER,
    expectHeader: { name: "ratelimit-policy", value: QUOTA_POLICY },
  };
  const mix = operations.map((operation): BenchRequest => {
    const example = operation.examples[0];
    if (!example) throw new Error(`${operation.area}/${operation.name} has no example`);
    const query = queryOf(example.input as Record<string, unknown>);
    return {
      method: "GET",
      path: query ? `${pathOf(operation)}?${query}` : pathOf(operation),
      headers: AUTH,
      expect: example.output,
    };
  });
  const batch = operations.slice(0, BATCH_SIZE);
  const batchQuery = exampleQuery(buildGraphqlSchema(operations), batch);
  const sumDescription = `GET ${SUM_PATH}`;
  /** REST sum's request to fastify + rate-limit: answered with the plugin's quota header. */
  const rateLimitedSum: BenchRequest = {
    method: "GET",
    path: SUM_PATH,
    headers: AUTH,
    expect: SUM_ANSWER,
    expectHeader: { name: "x-ratelimit-limit", value: new RegExp(`^${BENCH_QUOTA.limit}$`) },
  };
  return [
    {
      name: "raw",
      server: "raw",
      description: "bare node:http server, constant JSON body",
      calculationsPerRequest: 0,
      requests: [{ method: "GET", path: SUM_PATH, headers: AUTH, expect: SUM_ANSWER }],
    },
    {
      name: "raw-10us",
      server: "raw-10us",
      description: `the same bare server, busy ${YARDSTICK_WORK_US} µs of CPU per request: a yardstick for what so much work per request costs here`,
      calculationsPerRequest: 0,
      requests: [{ method: "GET", path: SUM_PATH, headers: AUTH, expect: SUM_ANSWER }],
    },
    {
      name: "rest-sum",
      server: "service",
      description: sumDescription,
      calculationsPerRequest: 1,
      requests: [restSum],
    },
    {
      name: "rest-mix",
      // A process of its own: the whole catalogue's first calls load what only some
      // operations use (Temporal, zxcvbn's dictionaries), which would otherwise count in
      // every row answered after it.
      server: "service-mix",
      description: `all ${mix.length} operations in turn, REST, first example of each, in a service process of its own (the libraries some operations load on first use count in this row only)`,
      calculationsPerRequest: 1,
      requests: mix,
    },
    {
      name: "rest-10",
      server: "service",
      description: `the GraphQL batch's ${BATCH_SIZE} operations in turn, REST, one per request: the batch's work unbatched`,
      calculationsPerRequest: 1,
      requests: mix.slice(0, BATCH_SIZE),
    },
    {
      name: "graphql-1",
      server: "service",
      description: `POST /graphql ${GRAPHQL_SUM_QUERY}`,
      calculationsPerRequest: 1,
      requests: [graphqlRequest(GRAPHQL_SUM_QUERY, 1)],
    },
    {
      name: "graphql-10",
      server: "service",
      description: `POST /graphql, one query with ${BATCH_SIZE} operations: ${batch
        .map((operation) => `${operation.area}/${operation.name}`)
        .join(", ")}`,
      calculationsPerRequest: BATCH_SIZE,
      requests: [graphqlRequest(batchQuery, BATCH_SIZE)],
    },
    {
      name: "graphql-10-sum",
      server: "service",
      description: `POST /graphql, ${BATCH_SIZE} aliased math.sum fields (REST sum's work, batched)`,
      calculationsPerRequest: BATCH_SIZE,
      requests: [graphqlRequest(GRAPHQL_TEN_SUMS_QUERY, BATCH_SIZE)],
    },
    {
      name: "mcp-sum",
      server: "service",
      description: `POST /mcp, one tools/call of math_sum with REST sum's numbers (stateless: one SDK server answers every request)`,
      calculationsPerRequest: 1,
      requests: [
        {
          method: "POST",
          path: "/mcp",
          headers: {
            ...AUTH,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify(MCP_SUM_CALL),
          expect: {
            jsonrpc: "2.0",
            id: 1,
            result: {
              content: [{ type: "text", text: JSON.stringify(SUM_ANSWER) }],
              structuredContent: SUM_ANSWER,
            },
          },
        },
      ],
    },
    {
      name: "rest-sum-warn",
      server: "service-warn",
      description: `${sumDescription}, LOG_LEVEL=warn (no request lines; the quota as every row)`,
      calculationsPerRequest: 1,
      requests: [restSum],
    },
    {
      name: "rest-sum-managed",
      server: "service",
      description: `${sumDescription}, a managed key with its own plan (${BENCH_QUOTA.limit} per ${BENCH_QUOTA.windowSeconds} s), made through POST /admin/v1/keys in rest-sum's process`,
      calculationsPerRequest: 1,
      requests: [restSum],
      managedKey: true,
    },
    {
      name: "bare-fastify",
      server: "bare-fastify",
      description: `${sumDescription} from bare fastify: key hook, querystring schema, float sum`,
      calculationsPerRequest: 1,
      requests: [{ method: "GET", path: SUM_PATH, headers: AUTH, expect: SUM_ANSWER }],
    },
    {
      name: "bare-fastify-rate-limit",
      server: "bare-fastify-rate-limit",
      description: `${sumDescription} from bare fastify + @fastify/rate-limit: the same app, each request charged to its API key (in-memory store, ${BENCH_QUOTA.limit} per ${BENCH_QUOTA.windowSeconds} s)`,
      calculationsPerRequest: 1,
      requests: [rateLimitedSum],
    },
    {
      name: "bare-fastify-rate-limit-log",
      server: "bare-fastify-rate-limit-log",
      description: `${sumDescription} from bare fastify + @fastify/rate-limit, logging one line per request at info (fastify's pino logger, to /dev/null): the framework doing all the service does as shipped`,
      calculationsPerRequest: 1,
      requests: [rateLimitedSum],
    },
    {
      name: "fastapi",
      server: "fastapi",
      description: `${sumDescription} from FastAPI + uvicorn (1 worker): key dependency, Query validation, float sum`,
      calculationsPerRequest: 1,
      requests: [{ method: "GET", path: SUM_PATH, headers: AUTH, expect: SUM_ANSWER }],
    },
    {
      name: "rest-sum-workers2",
      server: "workers2",
      description: `${sumDescription}, WORKERS=2`,
      calculationsPerRequest: 1,
      requests: [restSum],
    },
  ];
}

/** `workload` sending `key` in place of API_KEY. */
export function withKey(workload: Workload, key: string): Workload {
  return {
    ...workload,
    requests: workload.requests.map((request) => ({
      ...request,
      headers: { ...request.headers, [API_KEY_HEADER]: key },
    })),
  };
}

/**
 * Makes a managed key holding BENCH_QUOTA as its own plan through `origin`'s admin API;
 * resolves to its secret.
 */
export async function createManagedKey(origin: string, adminToken: string): Promise<string> {
  const response = await fetch(`${origin}/admin/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "bench", plan: BENCH_QUOTA }),
    signal: AbortSignal.timeout(5000),
  });
  const text = await response.text();
  if (response.status !== 201) {
    throw new Error(`POST /admin/v1/keys → ${response.status} ${text.slice(0, 300)}`);
  }
  const { key, plan } = JSON.parse(text) as { key?: unknown; plan?: unknown };
  if (typeof key !== "string") throw new Error("POST /admin/v1/keys answered no key");
  if (!isDeepStrictEqual(plan, BENCH_QUOTA)) {
    throw new Error(`POST /admin/v1/keys made a key with plan ${JSON.stringify(plan)}`);
  }
  return key;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether `value` holds `expected`: equal, or for objects every key of `expected` held by
 * the same key of `value` (arrays compare whole, item by item).
 *
 * @example
 * holds({ a: 1, _meta: {} }, { a: 1 }); // true
 */
export function holds(value: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(value) &&
      value.length === expected.length &&
      expected.every((item, i) => holds(value[i], item))
    );
  }
  if (isRecord(expected)) {
    return (
      isRecord(value) && Object.keys(expected).every((key) => holds(value[key], expected[key]))
    );
  }
  return isDeepStrictEqual(value, expected);
}

/** Why `body` is not a good GraphQL answer with `fields` operation fields, or undefined. */
function graphqlProblem(body: unknown, fields: number): string | undefined {
  if (!isRecord(body)) return "the answer is not a JSON object";
  if (body.errors !== undefined) return `it has errors: ${JSON.stringify(body.errors)}`;
  if (!isRecord(body.data)) return "it has no data";
  let found = 0;
  for (const area of Object.values(body.data)) {
    if (!isRecord(area)) return `an area field is ${JSON.stringify(area)}`;
    for (const value of Object.values(area)) if (value !== null && value !== undefined) found++;
  }
  return found === fields ? undefined : `it has ${found} operation results, not ${fields}`;
}

/**
 * Sends each distinct request of `workload` once to `origin`; returns the problems (a
 * status other than 200, a GraphQL `errors`, an answer other than the documented one).
 */
export async function checkWorkload(origin: string, workload: Workload): Promise<string[]> {
  const problems: string[] = [];
  for (const request of workload.requests) {
    const where = `${workload.name}: ${request.method} ${request.path}`;
    try {
      const response = await fetch(`${origin}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        signal: AbortSignal.timeout(5000),
      });
      const text = await response.text();
      if (response.status !== 200) {
        problems.push(`${where} → ${response.status} ${text.slice(0, 300)}`);
        continue;
      }
      const header = request.expectHeader;
      const value = header && response.headers.get(header.name);
      if (header && !(value && header.value.test(value))) {
        problems.push(
          `${where} → ${header.name}: ${value ?? "(absent)"}, expected ${header.value}`,
        );
      }
      const body: unknown = JSON.parse(text);
      if (request.expect !== undefined && !holds(body, request.expect)) {
        problems.push(
          `${where} → ${text.slice(0, 300)}, expected ${JSON.stringify(request.expect)}`,
        );
      }
      if (request.graphqlFields !== undefined) {
        const problem = graphqlProblem(body, request.graphqlFields);
        if (problem) problems.push(`${where} → ${problem.slice(0, 500)}`);
      }
    } catch (error) {
      problems.push(`${where} → ${(error as Error).message}`);
    }
  }
  return problems;
}
