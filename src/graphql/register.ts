/**
 * The GraphQL gateway: `GET` and `POST /graphql` inside the fastify app, behind the same
 * API-key hook as REST. The schema is generated from the registry once, at start. Every
 * request runs the one pipeline (pipeline.ts), reached through one of its two HTTP
 * adapters (adapters.ts): the shortcut for plain JSON POSTs, graphql-yoga for the rest.
 */

import type {
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
} from "fastify";
import { GraphQLError } from "graphql";
import type { YogaLogger, YogaServerInstance } from "graphql-yoga";
import type { Runner } from "../core/runner.js";
import { boundJsonBodies } from "../http/json-body.js";
import type { AnyOperation } from "../kit/define.js";
import { countingRunner } from "../observability/calculation-counters.js";
import type { Surface } from "../surface.js";
import { createShortcut, usePipeline, weighGraphqlRequest } from "./adapters.js";
import { createBudget } from "./budget.js";
import { exampleQuery } from "./examples.js";
import { registerGraphiql, wantsGraphiql } from "./graphiql.js";
import { bodyForEmptyError, handleGraphqlError, useFastifyParams } from "./http-errors.js";
import { DEFAULT_GRAPHQL_LIMITS, type GraphqlLimits } from "./limits.js";
import { createPipeline, type Pipeline, type RequestContext } from "./pipeline.js";
import type { Charge } from "./quota.js";
import type { UsageHook } from "./resolve.js";
import { buildGraphqlSchema, isLoggedFault } from "./schema.js";

export const GRAPHQL_PATH = "/graphql";

/**
 * Yoga's logger on fastify's: an unexpected error is logged with its original error (the
 * one a resolver threw, with its stack), never with the masked one clients get. Faults
 * of operations were already logged by their resolver, with the request id.
 */
function yogaLogger(log: FastifyBaseLogger): YogaLogger {
  const write =
    (level: "debug" | "info" | "warn" | "error") =>
    (...args: unknown[]) => {
      const [first, ...rest] = args;
      if (first instanceof Error) {
        const original =
          first instanceof GraphQLError && first.originalError ? first.originalError : first;
        if (isLoggedFault(original)) return;
        const path = first instanceof GraphQLError ? first.path?.join(".") : undefined;
        log[level]({ err: original, path }, `graphql: ${original.message}`);
      } else {
        log[level](rest.length > 0 ? { args: rest } : {}, `graphql: ${String(first)}`);
      }
    };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

/** How many operations GraphiQL's starting query shows (one per area). */
const STARTER_OPERATIONS = 4;

function starterQuery(
  schema: Parameters<typeof exampleQuery>[0],
  operations: readonly AnyOperation[],
  limits: GraphqlLimits,
) {
  const firstOfEachArea = operations.filter(
    (operation, index) => operations.findIndex((o) => o.area === operation.area) === index,
  );
  return (
    '# Put your key in the Headers tab below: {"X-API-Key": "…"}.\n' +
    `# One request may batch up to ${limits.maxOperationFields} calculations; use aliases to repeat a field.\n` +
    exampleQuery(schema, firstOfEachArea.slice(0, STARTER_OPERATIONS))
  );
}

export interface GraphqlOptions {
  limits?: GraphqlLimits;
  /** The runner resolvers call (REST's own, with its metrics); `execute` by default. */
  run?: Runner;
  /** Charges each request's operation fields to its key's quota, when limits are on. */
  charge?: Charge;
  /** Told of each field's operation as it runs, with its request (the key's usage). */
  used?: UsageHook;
  /**
   * Whether plain JSON POSTs take the shortcut adapter rather than yoga's (see
   * adapters.ts); true by default. The tests turn it off to compare both adapters' answers.
   */
  fastPath?: boolean;
}

/** What a client sees instead of an unexpected error's own message. */
const MASKED_MESSAGE = "Unexpected error.";

/**
 * Registers `/graphql` (and GraphiQL's assets) on `app` for `operations`. `authenticate`
 * is the API-key `onRequest` hook REST uses: it runs before the body is parsed, for every
 * request except a browser opening the GraphiQL page. Answers the pipeline.
 *
 * @example
 * registerGraphql(app, operations, access.authenticateOnly, { run, charge: access.chargeNow });
 */
export function registerGraphql(
  app: FastifyInstance,
  operations: readonly AnyOperation[],
  authenticate: onRequestHookHandler,
  options: GraphqlOptions = {},
): Pipeline {
  // Built here, synchronously, so a schema problem stops the start with its message.
  const schema = buildGraphqlSchema(operations, options.run, options.used);
  const limits = options.limits ?? DEFAULT_GRAPHQL_LIMITS;
  const logger = yogaLogger(app.log);
  const pipeline = createPipeline({
    schema,
    limits,
    budget: createBudget(schema, operations),
    maskedMessage: MASKED_MESSAGE,
    // Logged as yoga logs each error it masks.
    logMasked: (error) => logger.error(error),
    ...(options.charge ? { charge: options.charge } : {}),
  });
  // Loaded by the first request that needs yoga (see adapters.ts); a failed load is
  // retried by the next such request rather than remembered.
  let yoga: Promise<YogaServerInstance<RequestContext, object>> | undefined;
  const loadYoga = (): Promise<YogaServerInstance<RequestContext, object>> => {
    yoga ??= import("graphql-yoga").then(
      ({ createYoga }) =>
        createYoga<RequestContext>({
          schema,
          graphqlEndpoint: GRAPHQL_PATH,
          // GraphiQL is served by the route below, from local files, without a key.
          graphiql: false,
          landingPage: false,
          // The service has one CORS policy for every route, outside yoga.
          cors: false,
          // File uploads are no use here; without a parser, fastify refuses such bodies.
          multipart: false,
          // The pipeline parses and validates (and caches); yoga's own parser never runs.
          parserAndValidationCache: false,
          // isDev false: a masked error never carries the original's message or stack. Yoga masks
          // what is thrown outside the pipeline (a parameter refused, a fault of its own).
          maskedErrors: { errorMessage: MASKED_MESSAGE, isDev: false },
          logging: logger,
          plugins: [useFastifyParams(), usePipeline(pipeline)],
        }),
      (error: unknown) => {
        yoga = undefined;
        throw error;
      },
    );
    return yoga;
  };

  const shortcut = options.fastPath === false ? undefined : createShortcut(pipeline);

  const onRequest: onRequestHookHandler = function graphqlAuth(request, reply, done) {
    if (wantsGraphiql(request)) return done();
    // A hook written either way (async, or with `done`) is run as fastify would.
    return authenticate.call(this, request, reply, done);
  };

  app.register(async (scope) => {
    const graphiql = registerGraphiql(scope, {
      title: "Utility Calculation Service — GraphiQL",
      endpoint: GRAPHQL_PATH,
      defaultQuery: starterQuery(schema, operations, limits),
    });
    // `POST` with `Content-Type: application/graphql`: the body is the query itself.
    scope.addContentTypeParser("application/graphql", { parseAs: "string" }, (_req, body, done) =>
      done(null, body),
    );
    // Plain JSON: a `__proto__` key is valid JSON and becomes an own property like any other
    // (no prototype is touched), so the body is refused as an unexpected parameter, not
    // called invalid JSON. Nothing here merges a body into another object.
    boundJsonBodies(scope, "ignore");
    // A long document not yet prepared takes the heavy lane (http/heavy-lane.ts); what the
    // lookup found is kept for the handler, so the pipeline looks a document up once.
    scope.decorateRequest("graphqlPrepared", undefined);
    scope.addHook("preValidation", weighGraphqlRequest(pipeline));
    scope.setErrorHandler((error, request, reply) =>
      handleGraphqlError(error as FastifyError, request, reply, MASKED_MESSAGE),
    );
    scope.route({
      url: GRAPHQL_PATH,
      method: ["GET", "POST"],
      // HEAD would run yoga for nothing; it gets the 405 with `Allow`.
      exposeHeadRoute: false,
      onRequest,
      // Not async: the usual request is answered in this tick, with no promise to wait for.
      // A synchronous handler that sends returns nothing (fastify would send a value).
      handler: (request, reply) => {
        if (wantsGraphiql(request)) {
          reply
            .header("content-security-policy", graphiql.csp)
            .type("text/html; charset=utf-8")
            .send(graphiql.html);
          return;
        }
        const answered = shortcut?.(request, reply);
        if (answered === undefined) return viaYoga(request, reply);
        // A promise when the pipeline waited (a quota store); fastify waits for it.
        if (answered instanceof Promise) return answered;
      },
    });
  });

  async function viaYoga(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const server = await loadYoga();
    const response = await server.handleNodeRequestAndResponse(yogaRequest(request), reply, {
      req: request,
      reply,
    });
    reply.status(response.status);
    // Answers are small JSON documents: sent whole, they skip stream plumbing.
    const body = await response.text();
    const errorBody = bodyForEmptyError(response.status, body);
    if (errorBody !== undefined) {
      return reply.type("application/json; charset=utf-8").send(errorBody);
    }
    for (const [key, value] of response.headers) reply.header(key, value);
    return reply.send(body);
  }

  return pipeline;
}

/**
 * What yoga's server adapter is handed as the HTTP request: the method and headers, the
 * path without its query, and a placeholder body. The parameters are read from fastify's
 * parsed request (`useFastifyParams`, from the server context), so the adapter needs
 * neither: handed the real request, it rebuilt the URL with its 128 KB query string and
 * ran `Object.keys` over a string body, one key per character (a 1 MB
 * `application/graphql` body: ~0.5 s of CPU and ~40 MB, an outside attack found). The
 * host is a constant: nothing reads it, and a client's could make the URL invalid.
 */
function yogaRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: GRAPHQL_PATH,
    headers: { ...request.headers, host: "localhost" },
    body: request.method === "POST" ? UNREAD_BODY : undefined,
  };
}

/** A body for the adapter's request that no one reads (see {@link yogaRequest}). */
const UNREAD_BODY = "{}";

/** GraphQL: `/graphql` and GraphiQL. */
export const graphqlSurface: Surface = {
  name: "graphql",
  register(app, { config, operations, access, metrics, managed, graphqlFastPath }) {
    registerGraphql(app, operations, access.authenticateOnly, {
      run: countingRunner(metrics, "graphql"),
      // Without any quota (none of the server's, no managed key with a plan) nothing is
      // charged, and the usual request runs without a promise.
      ...(config.rateLimit > 0 || managed ? { charge: access.chargeNow } : {}),
      used: (request, operation) => access.used(request as FastifyRequest, operation, 1),
      fastPath: graphqlFastPath,
    });
  },
};
