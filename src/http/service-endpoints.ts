/**
 * The service's own endpoints, outside `/v1`: liveness (`/health`), readiness (`/ready`,
 * 503 while draining), the OpenAPI document and the Prometheus metrics.
 */
import cluster from "node:cluster";
import type { FastifyInstance, onRequestHookHandler } from "fastify";
import { clusterMetrics } from "../cluster.js";
import type { Metrics } from "../observability/metrics.js";

export interface ServiceEndpointOptions {
  /** The OpenAPI document, serialized once. */
  openApiJson: string;
  metrics: Metrics;
  /**
   * `/metrics`' access hook: the metrics token as a bearer token when one is configured,
   * else an API key; failures are limited per address either way (access/control.ts).
   */
  authenticate: onRequestHookHandler;
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
      onRequest: options.authenticate,
    },
    async (_request, reply) => {
      const body = cluster.isWorker ? await clusterMetrics() : await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(body);
    },
  );
}
