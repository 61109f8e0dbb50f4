/**
 * Builds the application: every route, hook and handler, but no listening socket.
 * Tests call `buildApp()` and `app.inject()`; `server.ts` listens.
 */
import cluster from "node:cluster";
import Fastify, { type FastifyInstance, type FastifyServerFactory } from "fastify";
import { AggregatorRegistry } from "prom-client";
import type { AccessControl } from "./access/control.js";
import { accessFromConfig } from "./access/from-config.js";
import type { ManagedKeys } from "./access/keys/managed.js";
import type { KeySource } from "./access/keys.js";
import { meSurface } from "./access/me.js";
import { adminSurface } from "./admin/routes.js";
import type { Config } from "./config.js";
import { inputCheckOf } from "./core/compile-input.js";
import { docsSurface } from "./docs/swagger-ui.js";
import { graphqlSurface } from "./graphql/register.js";
import { registerBackpressure } from "./http/backpressure.js";
import { handleError, registerNotFound, requireHost } from "./http/errors.js";
import { registerHeavyLane } from "./http/heavy-lane.js";
import { boundJsonBodies } from "./http/json-body.js";
import { RequestLog } from "./http/observability.js";
import { answerUnroutedWithoutContinue, registerProtocolEdges } from "./http/protocol-edges.js";
import { registerCors, registerResponseHeaders } from "./http/security.js";
import { fastifyOptions, httpServer, limitConnections } from "./http/server-options.js";
import { registerServiceEndpoints } from "./http/service-endpoints.js";
import type { AnyOperation } from "./kit/define.js";
import { mcpSurface } from "./mcp/http.js";
import { createMetrics } from "./observability/metrics.js";
import { buildOpenApiDocument } from "./openapi/document.js";
import { loadOperations, operationsDirs } from "./registry/loader.js";
import { recipesSurface } from "./rest/recipes.js";
import { restSurface } from "./rest/routes.js";
import type { Surface, SurfaceContext } from "./surface.js";
import { VERSION } from "./version.js";

/** Every surface the app serves, registered in this order through one signature. */
const SURFACES: readonly Surface[] = [
  docsSurface,
  meSurface,
  adminSurface,
  restSurface,
  recipesSurface,
  graphqlSurface,
  mcpSurface,
];

export interface AppOptions {
  config: Config;
  /** The operations to serve; by default, every module under `operations/` and OPERATIONS_DIRS. */
  operations?: readonly AnyOperation[];
  /** Pino logger options, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
  /** False sends every GraphQL request through yoga's adapter (tests compare both adapters). */
  graphqlFastPath?: boolean;
  /**
   * The managed keys (store, directory, usage), opened once per process by server.ts and
   * kept across reloads; none in most tests (static keys only, no usage kept).
   */
  managedKeys?: ManagedKeys;
  /** Where keys are found besides API_KEYS and the managed keys (tests). */
  keySources?: readonly KeySource[];
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
  access: AccessControl;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Set on SIGTERM: /ready answers 503 so load balancers stop sending. */
    lifecycle: { draining: boolean };
    /** Handed on to the app that replaces this one on a reload. */
    appState: AppState;
  }
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
  const requestLog = new RequestLog(metrics.http);
  const app = Fastify(
    fastifyOptions(config, metrics, {
      logger: options.logger,
      replacingLog: replacing?.log,
      serverFactory: options.serverFactory ?? httpServer,
      requestLog,
    }),
  );
  limitConnections(app, config, metrics);
  registerProtocolEdges(app, requestLog);
  app.decorate("lifecycle", replacing?.lifecycle ?? { draining: false });
  // Declared up front, so every request object has one shape whether or not a key is set.
  app.decorateRequest("apiKeyId", undefined);
  app.decorateRequest("principal", undefined);
  // Set by a surface that knows a request to be costly (heavy-lane.ts reads it).
  app.decorateRequest("heavy", false);
  // First: a request waiting behind its connection's previous answer runs nothing yet.
  registerBackpressure(app);
  // Then: requests with large inputs run one per turn of the event loop, between cheap ones.
  registerHeavyLane(app);

  if (cluster.isWorker && !replacing) {
    // Constructing one makes this worker answer the primary's metrics requests.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metrics.registry]);
  }
  // A reload keeps the quota counters (and their Redis client): a SIGHUP resets no quota.
  const managed = options.managedKeys;
  const access =
    replacing?.appState.access ??
    accessFromConfig(
      app,
      config,
      metrics,
      [...(managed ? [managed.directory] : []), ...(options.keySources ?? [])],
      managed?.usage,
    );
  app.decorate("appState", { metrics, access });

  app.setErrorHandler(handleError);
  boundJsonBodies(app, "error");
  app.addHook("onRequest", requireHost);
  registerNotFound(app);
  registerResponseHeaders(app, () => app.lifecycle.draining);
  app.addHook("onRequest", answerUnroutedWithoutContinue);
  await registerCors(app, config.corsOrigins);

  const context: SurfaceContext = {
    config,
    operations,
    access,
    metrics,
    managed,
    graphqlFastPath: options.graphqlFastPath ?? true,
  };
  // Made by its first request, not at the start: at a few hundred operations it is a
  // large share of the start's CPU and heap, for a document few clients fetch.
  let openApiJson: string | undefined;
  const openApi = () => {
    openApiJson ??= JSON.stringify(
      buildOpenApiDocument(
        operations,
        { version: VERSION },
        SURFACES.flatMap((surface) => (surface.document ? [surface.document(operations)] : [])),
      ),
    );
    return openApiJson;
  };
  registerServiceEndpoints(app, {
    openApiJson: openApi,
    metrics,
    authenticate: config.metricsToken
      ? access.bearer(config.metricsToken, "metrics")
      : access.authenticateOnly,
  });
  for (const surface of SURFACES) await surface.register(app, context);

  return app;
}
