/**
 * The service's own endpoints, outside `/v1`: liveness (`/health`), readiness (`/ready`,
 * 503 while draining), the OpenAPI document and the Prometheus metrics.
 */
import cluster from "node:cluster";
import type { FastifyInstance, onRequestHookHandler } from "fastify";
import { clusterMetrics } from "../cluster.js";
import type { Metrics } from "../observability/metrics.js";
import { createSecretMatcher } from "./auth.js";
import { sendError } from "./errors.js";

export interface ServiceEndpointOptions {
  /** The OpenAPI document, serialized once. */
  openApiJson: string;
  metrics: Metrics;
  /** When set, `/metrics` takes `Authorization: Bearer <token>` instead of an API key. */
  metricsToken: string | undefined;
  /** The API-key hook `/metrics` uses when there is no token. */
  authenticate: onRequestHookHandler;
}

const BEARER = "Bearer ";

/** `onRequest` hook: 401 unless the request carries `Bearer <token>` (compared in constant time). */
function bearerToken(token: string): onRequestHookHandler {
  const matches = createSecretMatcher(token);
  return (request, reply, done) => {
    const header = request.headers.authorization;
    if (header?.startsWith(BEARER) && matches(header.slice(BEARER.length))) return done();
    sendError(reply, 401, "Send the metrics token as a Bearer token", {
      "www-authenticate": 'Bearer realm="metrics"',
    });
  };
}

/** Registers `/health`, `/ready`, `/openapi.json` and `/metrics` on `app`. */
export function registerServiceEndpoints(
  app: FastifyInstance,
  options: ServiceEndpointOptions,
): void {
  const { openApiJson, metrics } = options;
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
      onRequest: options.metricsToken ? bearerToken(options.metricsToken) : options.authenticate,
    },
    async (_request, reply) => {
      const body = cluster.isWorker ? await clusterMetrics() : await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(body);
    },
  );
}
