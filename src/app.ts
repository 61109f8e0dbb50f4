/**
 * Builds the application: every route, hook and handler, but no listening socket.
 * Tests call `buildApp()` and `app.inject()`; `server.ts` listens.
 */
import cluster from "node:cluster";
import Fastify, { type FastifyInstance, type FastifyServerFactory } from "fastify";
import type { Redis } from "ioredis";
import { AggregatorRegistry } from "prom-client";
import { clusterMetrics } from "./cluster.js";
import type { Config } from "./config.js";
import { inputCheckOf } from "./core/compile-input.js";
import { observedRunner } from "./core/runner.js";
import { registerDocs } from "./docs/swagger-ui.js";
import { registerGraphql } from "./graphql/register.js";
import { registerBackpressure } from "./http/backpressure.js";
import { handleClientError, handleError, requireHost, sendError } from "./http/errors.js";
import { registerHeavyLane } from "./http/heavy-lane.js";
import { logDestination, noChildLogger, RequestLog, requestIdOf } from "./http/observability.js";
import { registerCors, registerResponseHeaders } from "./http/security.js";
import type { AnyOperation } from "./kit/define.js";
import { createAccessControl } from "./limits/access.js";
import { chooseStore, createQuotaCounter, createRedisClient } from "./limits/rate-limit.js";
import { registerMcp } from "./mcp/http.js";
import { createMetrics, type Gateway } from "./observability/metrics.js";
import { buildOpenApiDocument } from "./openapi/document.js";
import { loadOperations, operationsDirs } from "./registry/loader.js";
import { parseQueryString } from "./rest/query.js";
import { registerRestRoutes } from "./rest/routes.js";
import { VERSION } from "./version.js";

export interface AppOptions {
  config: Config;
  /** The operations to serve; by default, every module under `operations/` and OPERATIONS_DIRS. */
  operations?: readonly AnyOperation[];
  /** Pino logger options, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
  /** False sends every GraphQL request through yoga (tests compare both paths). */
  graphqlFastPath?: boolean;
  /** Fastify's `serverFactory`: lets a reload swap which app one HTTP server dispatches to. */
  serverFactory?: FastifyServerFactory;
  /**
   * A reload: the app being replaced, whose logger, metrics, quota counters and lifecycle
   * the new one takes over, so counts and quotas carry on across the reload.
   */
  replacing?: FastifyInstance;
}

/** What outlives a reload: everything but the operations and what is built from them. */
interface AppState {
  metrics: ReturnType<typeof createMetrics>;
  access: ReturnType<typeof createAccessControl>;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Set on SIGTERM: /ready answers 503 so load balancers stop sending. */
    lifecycle: { draining: boolean };
    /** Handed on to the app that replaces this one on a reload. */
    appState: AppState;
  }
}

/** Open connections one process serves at once. */
export const MAX_CONNECTIONS = 1024;

/** Allowed methods per known path, for 405 answers. */
function trackRoutes(app: FastifyInstance): Map<string, Set<string>> {
  const methods = new Map<string, Set<string>>();
  app.addHook("onRoute", (route) => {
    const set = methods.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) set.add(method);
    methods.set(route.url, set);
  });
  return methods;
}

/** Store errors come in bursts while Redis is down: log the first, then one a minute. */
function throttledWarning(warn: (error: Error) => void, intervalMs = 60_000) {
  let last = 0;
  return (error: Error) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    warn(error);
  };
}

/**
 * Builds the app for `config`.
 *
 * @example
 * const app = await buildApp({ config: loadConfig({ API_KEYS: "k" }), logger: false });
 * const res = await app.inject({ url: "/v1/math/sum?numbers=1,2", headers: { "x-api-key": "k" } });
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, replacing } = options;
  const operations =
    options.operations ?? (await loadOperations(operationsDirs(config.operationsDirs)));
  // Each operation's input check is compiled now, not by its first request.
  for (const operation of operations) inputCheckOf(operation);
  const metrics = replacing?.appState.metrics ?? createMetrics();
  const app = Fastify({
    ...(replacing
      ? { loggerInstance: replacing.log }
      : {
          // No logger (tests) is a silent one: fastify reports completed requests, and so
          // the HTTP metrics, only to an app with a logger.
          logger:
            options.logger === false
              ? { level: "silent" }
              : {
                  level: config.logLevel,
                  stream: logDestination(() => metrics.logLinesDropped.inc()),
                  ...(typeof options.logger === "object" ? options.logger : {}),
                },
        }),
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    // One line per request, when it completes, without the query string, and the HTTP
    // metrics (see RequestLog); request-scoped lines name their request id themselves.
    logController: new RequestLog(metrics.http),
    childLoggerFactory: noChildLogger,
    genReqId: requestIdOf,
    trustProxy: config.trustProxy,
    // A 10,000-item list fits in a GET; a larger URL is a 431. Headers must arrive within
    // HEADERS_TIMEOUT (slow clients), a whole request within REQUEST_TIMEOUT; idle
    // keep-alive sockets live 65 s, longer than a load balancer's usual 60 s, so the
    // balancer closes them first.
    http: {
      maxHeaderSize: 128 * 1024,
      headersTimeout: Math.min(config.headersTimeoutSeconds, config.requestTimeoutSeconds) * 1000,
      // Node enforces both timeouts only when it checks, every 30 s by default.
      connectionsCheckingInterval: 500,
      // Node's own refusal of a request without Host has no body; `requireHost` answers it.
      requireHostHeader: false,
    },
    requestTimeout: config.requestTimeoutSeconds * 1000,
    keepAliveTimeout: 65_000,
    bodyLimit: 1024 * 1024,
    routerOptions: {
      ignoreTrailingSlash: false,
      maxParamLength: 200,
      querystringParser: parseQueryString,
    },
    return503OnClosing: true,
    clientErrorHandler: handleClientError,
  });
  // Header count is bounded by maxHeaderSize alone. Node 24 answers 431 past
  // maxHeadersCount (default 2,000 entries) where Node 22 silently dropped the rest.
  app.server.maxHeadersCount = 0;
  app.decorate("lifecycle", replacing?.lifecycle ?? { draining: false });
  // Bounds what connections can hold in memory together (see docs/budgets-and-fairness.md);
  // past it node drops new connections at once.
  app.server.maxConnections = MAX_CONNECTIONS;
  // First: a request waiting behind its connection's previous answer runs nothing yet.
  registerBackpressure(app);
  // Then: requests with large inputs run one per turn of the event loop, between cheap ones.
  registerHeavyLane(app);
  const allowed = trackRoutes(app);

  if (cluster.isWorker && !replacing) {
    // Constructing one makes this worker answer the primary's metrics requests.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metrics.registry]);
  }
  const storeFailure = throttledWarning((error) =>
    app.log.warn({ err: error }, "rate-limit store unavailable; requests pass uncounted"),
  );
  const onStoreFailure = (error: Error) => {
    metrics.rateLimitStoreFailures.inc();
    storeFailure(error);
  };
  // A reload keeps the quota counters (and their Redis client): a SIGHUP resets no quota.
  const access = replacing?.appState.access ?? createAccess();
  function createAccess() {
    let redis: Redis | undefined;
    if (config.redisUrl && (config.rateLimit > 0 || config.authFailureLimit > 0)) {
      redis = createRedisClient(config.redisUrl, storeFailure);
      app.addHook("onClose", async () => {
        redis?.disconnect();
      });
    }
    const store = chooseStore(redis);
    return createAccessControl({
      keys: config.apiKeys,
      metrics,
      perKey:
        config.rateLimit > 0
          ? createQuotaCounter(
              {
                name: "per-key",
                limit: config.rateLimit,
                windowSeconds: config.rateLimitWindowSeconds,
              },
              store,
              onStoreFailure,
            )
          : undefined,
      authFailures:
        config.authFailureLimit > 0
          ? createQuotaCounter(
              {
                name: "auth-failures",
                limit: config.authFailureLimit,
                windowSeconds: config.authFailureWindowSeconds,
              },
              store,
              onStoreFailure,
            )
          : undefined,
    });
  }
  const runnerFor = (gateway: Gateway) => {
    // One counter per operation and outcome, found by identity rather than by building
    // a key from a label object on every calculation.
    const counters = new Map<AnyOperation, Map<string, { inc(): void }>>();
    return observedRunner((operation, outcome) => {
      let byOutcome = counters.get(operation);
      if (!byOutcome) {
        byOutcome = new Map();
        counters.set(operation, byOutcome);
      }
      let counter = byOutcome.get(outcome);
      if (!counter) {
        const id = `${operation.area}/${operation.name}`;
        counter = metrics.calculationCounter({ operation: id, gateway, outcome });
        byOutcome.set(outcome, counter);
      }
      counter.inc();
    });
  };

  app.decorate("appState", { metrics, access });

  app.setErrorHandler(handleError);
  app.addHook("onRequest", requireHost);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?", 1)[0] ?? "";
    const methods = allowed.get(path);
    if (methods) {
      return sendError(reply, 405, "Method Not Allowed", { allow: [...methods].sort().join(", ") });
    }
    return sendError(reply, 404, "Not Found");
  });
  registerResponseHeaders(app, () => app.lifecycle.draining);
  await registerCors(app, config.corsOrigins);

  const openApiJson = JSON.stringify(buildOpenApiDocument(operations, { version: VERSION }));

  app.get("/health", () => ({ status: "ok" }));
  app.get("/ready", (_request, reply) =>
    app.lifecycle.draining
      ? reply.code(503).send({ status: "draining" })
      : reply.send({ status: "ready" }),
  );
  app.get("/openapi.json", (_request, reply) =>
    reply.type("application/json; charset=utf-8").send(openApiJson),
  );
  app.get(
    "/metrics",
    {
      onRequest: config.metricsToken
        ? async (request, reply) => {
            if (request.headers.authorization !== `Bearer ${config.metricsToken}`) {
              return sendError(reply, 401, "Send the metrics token as a Bearer token", {
                "www-authenticate": 'Bearer realm="metrics"',
              });
            }
          }
        : access.authenticateOnly,
    },
    async (_request, reply) => {
      const body = cluster.isWorker ? await clusterMetrics() : await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(body);
    },
  );
  registerDocs(app);
  registerRestRoutes(app, operations, access.authenticate, runnerFor("rest"));
  registerGraphql(app, operations, access.authenticateOnly, {
    run: runnerFor("graphql"),
    ...(config.rateLimit > 0 ? { charge: access.charge } : {}),
    fastPath: options.graphqlFastPath ?? true,
  });
  registerMcp(app, operations, access, runnerFor("mcp"));
  return app;
}
