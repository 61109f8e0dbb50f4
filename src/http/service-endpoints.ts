/**
 * The service's own endpoints, outside `/v1`: a pointer to the rest (`/`), liveness
 * (`/health`), readiness (`/ready`, 503 while draining), the OpenAPI document and the
 * Prometheus metrics.
 */
import cluster from "node:cluster";
import type { FastifyInstance, onRequestHookHandler } from "fastify";
import { clusterMetrics } from "../cluster.js";
import type { Metrics } from "../observability/metrics.js";

export interface ServiceEndpointOptions {
  /** The OpenAPI document, serialized: called at each request, it makes it once. */
  openApiJson: () => string;
  metrics: Metrics;
  /**
   * `/metrics`' access hook: the metrics token as a bearer token when one is configured,
   * else an API key; failures are limited per address either way (access/control.ts).
   */
  authenticate: onRequestHookHandler;
}

/** Where a newcomer who opens `/` goes next: every surface, and how to send a key. */
export const POINTERS = {
  service: "Utility Calculation Service",
  docs: "/docs",
  graphql: "/graphql",
  openapi: "/openapi.json",
  mcp: "/mcp",
  health: "/health",
  try: "/v1/math/sum?numbers=0.1,0.2",
  key: "Send your API key as the X-API-Key header (Swagger UI at /docs: Authorize).",
  guide: "README.md and docs/ in the service's repository",
} as const;

const ROOT_JSON = JSON.stringify(POINTERS);

// No script, no style: the default Content-Security-Policy (default-src 'none') holds.
const ROOT_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${POINTERS.service}</title></head>
<body>
<h1>${POINTERS.service}</h1>
<ul>
<li><a href="/docs">/docs</a>: the API reference (Swagger UI); press Authorize and paste your API key</li>
<li><a href="/graphql">/graphql</a>: GraphQL, with GraphiQL in a browser</li>
<li><a href="/openapi.json">/openapi.json</a>: the OpenAPI document</li>
<li><code>POST /mcp</code>: the Model Context Protocol (Streamable HTTP)</li>
<li><code>${POINTERS.try}</code> with the header <code>X-API-Key</code>: a first calculation</li>
</ul>
<p>More: ${POINTERS.guide}.</p>
</body>
</html>
`;

/** Registers `/`, `/health`, `/ready`, `/openapi.json` and `/metrics` on `app`. */
export function registerServiceEndpoints(
  app: FastifyInstance,
  options: ServiceEndpointOptions,
): void {
  const { openApiJson, metrics } = options;
  // A browser (asking for HTML) gets links; anything else, the same pointers as JSON.
  app.get("/", (request, reply) => {
    reply.header("vary", "accept");
    return request.headers.accept?.includes("text/html")
      ? reply.type("text/html; charset=utf-8").send(ROOT_HTML)
      : reply.type("application/json; charset=utf-8").send(ROOT_JSON);
  });
  app.get("/health", () => ({ status: "ok" }));
  app.get("/ready", (_request, reply) =>
    app.lifecycle.draining
      ? reply.code(503).send({ status: "draining" })
      : reply.send({ status: "ready" }),
  );
  app.get("/openapi.json", (_request, reply) =>
    reply.type("application/json; charset=utf-8").send(openApiJson()),
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
