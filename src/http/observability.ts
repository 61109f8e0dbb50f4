/**
 * Request ids, one log line per request, and HTTP metrics. The log line carries the
 * path without its query string (queries can hold secrets: an HMAC key, a text) and the
 * key's id, never the key.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import type { Metrics } from "../observability/metrics.js";

export const REQUEST_ID_HEADER = "x-request-id";

/** What a client may choose as a request id: short, and safe to echo and to log. */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

/**
 * The request id: the client's `X-Request-Id` when well-formed, else a new UUID.
 *
 * @example
 * requestIdOf({ headers: { "x-request-id": "abc-123" } } as IncomingMessage); // "abc-123"
 */
export function requestIdOf(request: IncomingMessage): string {
  const offered = request.headers[REQUEST_ID_HEADER];
  return typeof offered === "string" && WELL_FORMED_REQUEST_ID.test(offered)
    ? offered
    : randomUUID();
}

/** The route template for labels and logs; unmatched URLs share one label. */
function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? "(unmatched)";
}

function pathOf(request: FastifyRequest): string {
  const path = request.url.split("?", 1)[0] ?? "";
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

/**
 * Fastify's log controller: no line when a request arrives, one when it completes (with
 * the route template, status, duration and the key's id). Running inside fastify's own
 * completion step costs less than an extra hook.
 */
export class RequestLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: "requestId" });
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      route: routeOf(request),
      path: pathOf(request),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      keyId: request.apiKeyId,
      remoteAddress: request.ip,
    };
    if (error) reply.log.error({ ...line, err: error }, "request");
    else reply.log.info(line, "request");
  }
}

/** Counts every response by route template and status, and observes its duration. */
export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook("onResponse", (request, reply, done) => {
    const labels = {
      method: request.method,
      route: routeOf(request),
      status: String(reply.statusCode),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
