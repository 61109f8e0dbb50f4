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
import pino from "pino";
import type { Metrics } from "../observability/metrics.js";

export const REQUEST_ID_HEADER = "x-request-id";

/** Log lines held in memory at most while stdout is slower than the log (then dropped). */
export const LOG_BUFFER_BYTES = 16 * 1024 * 1024;

/**
 * Where the log goes: stdout (or `dest`), written asynchronously (off the request path)
 * once 4 KB is waiting or every 200 ms, since one write per line costs more than
 * formatting it; pino flushes what is left at exit. Writes go out one at a time, up to
 * 16 KB each: smaller ones (tried: 2 KB) could not keep up with a loaded event loop, and
 * the backlog grew until the heap ran out. Should the destination fall behind all the
 * same, at most `maxBytes` wait; lines beyond are dropped and counted (`onDrop`).
 *
 * @example
 * Fastify({ logger: { stream: logDestination(() => metrics.logLinesDropped.inc()) } });
 */
export function logDestination(
  onDrop: () => void,
  { dest = 1, maxBytes = LOG_BUFFER_BYTES }: { dest?: number | string; maxBytes?: number } = {},
) {
  const destination = pino.destination({
    dest,
    sync: false,
    minLength: 4096,
    maxLength: maxBytes,
    periodicFlush: 200,
  });
  destination.on("drop", onDrop);
  return destination;
}

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
