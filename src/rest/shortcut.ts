/**
 * The REST shortcut: the usual REST request, answered before fastify sees it. A plain
 * `GET /v1/<area>/<name>` whose key passes at once and whose input checks and runs is
 * answered here with what fastify's route would answer (the same route output, headers,
 * metrics, calculation count and request line); any other request, and any request that
 * fails a step, goes to fastify untouched, which answers it in full, errors included.
 *
 * It saves fastify's per-request machinery: its hook runners, reply and serialiser steps
 * (what that costs: docs/performance.md). Like GraphQL's shortcut (graphql/adapters.ts)
 * it is an adapter only: the query is read by the REST route's own plan and run by the
 * runner, the connection is taken through the backpressure hooks' own bookkeeping, and it
 * never writes an error itself; fastify's error writer stays the only one.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import { execute } from "../core/runner.js";
import { API_KEY_HEADER } from "../http/auth.js";
import type { Admission } from "../http/backpressure.js";
import { isHeavy } from "../http/heavy-lane.js";
import { type RequestLog, requestIdOf } from "../http/observability.js";
import { answerHeaders } from "../http/security.js";
import type { CalculationCount } from "../observability/calculation-counters.js";
import { parseQueryString } from "./query.js";
import { type RestRoute, restOutput } from "./routes.js";

/** Answers `request` and says true, or leaves it untouched (for fastify) and says false. */
export type RestShortcut = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface RestShortcutOptions {
  routes: readonly RestRoute[];
  /** The key's id when a request with it passes the access hook at once (no quota to count). */
  passingKeyId(presented: unknown, address: string | undefined): string | undefined;
  /** The backpressure hooks' bookkeeping. */
  admission: Admission;
  /** Counts a calculation, as the REST route's runner counts it. */
  count: CalculationCount;
  /** The metrics and line of an answered request, as fastify's completion step writes them. */
  requestLog: RequestLog;
  logger: FastifyBaseLogger;
  /** False while draining or closing: fastify then answers (with `Connection: close`, or 503). */
  open(): boolean;
}

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * The shortcut for `routes`. Only for a configuration in which a REST answer needs nothing
 * but what is done here: no CORS headers and no proxy to read the client's address from
 * (app.ts decides); quotas are checked per request (`passingKeyId`).
 *
 * @example
 * const serve = (req, res) => shortcut(req, res) || fastifyHandler(req, res);
 */
export function createRestShortcut(options: RestShortcutOptions): RestShortcut {
  const { passingKeyId, admission, count, requestLog, logger, open } = options;
  const byPath = new Map<string, RestRoute>();
  for (const route of options.routes) byPath.set(route.path, route);

  const answer: RestShortcut = (request, response) => {
    const started = performance.now();
    const url = request.url as string;
    const headers = request.headers;
    // A body, a heavy URL or a missing Host: fastify's hooks have something to do.
    if (
      request.method !== "GET" ||
      isHeavy(url, undefined) ||
      headers.host === undefined ||
      headers["content-length"] !== undefined ||
      headers["transfer-encoding"] !== undefined ||
      !open()
    ) {
      return false;
    }
    const mark = url.indexOf("?");
    const route = byPath.get(mark === -1 ? url : url.slice(0, mark));
    if (route === undefined) return false;
    const socket = request.socket;
    // A request behind another on its connection waits its turn in the hooks.
    if (!admission.idle(socket)) return false;
    const keyId = passingKeyId(headers[API_KEY_HEADER], socket.remoteAddress);
    if (keyId === undefined) return false;
    let body: string | undefined;
    try {
      const values = parseQueryString(mark === -1 ? "" : url.slice(mark + 1));
      // Uncounted here: a failure is run again, and counted, by fastify's route.
      body = JSON.stringify(restOutput(route, values, execute));
    } catch {
      return false;
    }
    if (typeof body !== "string" || !admission.take(socket, response, body.length)) return false;
    count(route.operation, "ok");
    const requestId = requestIdOf(request);
    const headers200 = answerHeaders(requestId);
    headers200["content-type"] = JSON_TYPE;
    headers200["content-length"] = Buffer.byteLength(body);
    response.writeHead(200, headers200);
    response.end(body);
    requestLog.answered(
      logger,
      requestId,
      "GET",
      route.path,
      url,
      200,
      performance.now() - started,
      keyId,
      socket.remoteAddress,
    );
    return true;
  };

  // Nothing here may take the process down: a fault before the answer was begun leaves the
  // request to fastify; one while it was being written closes the connection (half an
  // answer is no answer); one after it (the bookkeeping) leaves the answer as it is.
  return (request, response) => {
    try {
      return answer(request, response);
    } catch (error) {
      // The path only: a query may hold secrets (an HMAC key, a text).
      logger.error({ err: error, path: request.url?.split("?", 1)[0] }, "REST shortcut failed");
      if (!response.headersSent) return false;
      if (!response.writableEnded) response.destroy();
      return true;
    }
  };
}
