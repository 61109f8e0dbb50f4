/**
 * GraphQL's server shortcut: the usual GraphQL request, answered before fastify sees it.
 * A `POST /graphql` of a small JSON body whose key passes at once is read here, and its
 * parameters run by the one pipeline (pipeline.ts), as the route's own shortcut
 * (adapters.ts) would run them; the answer is what that shortcut sends, with the headers,
 * metrics and request line fastify's route would give it.
 *
 * It saves fastify's per-request machinery for a body: its hook runners, the parser's
 * async resource and stream listeners, the reply and serialiser steps (what that costs:
 * docs/performance.md). A request it does not take at once goes to fastify untouched. A
 * body it read but cannot take (not JSON, too deep, parameters yoga must judge) goes to
 * fastify too, which reads the same bytes again ({@link replayBody}) and answers it in full:
 * fastify's error writer stays the only one for refusals. Once the pipeline ran, this
 * shortcut answers, errors included, as the route's shortcut would: a request is never
 * run twice.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import { API_KEY_HEADER } from "../http/auth.js";
import type { Admission } from "../http/backpressure.js";
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_VALUES } from "../http/json-body.js";
import { type RequestLog, requestIdOf } from "../http/observability.js";
import { replayBody } from "../http/replay.js";
import { answerHeaders } from "../http/security.js";
import { answerOf, shortcutBody, shortcutHeaders } from "./adapters.js";
import { type GraphqlResult, isPromise, type Pipeline, type RequestContext } from "./pipeline.js";

const ignore = () => {};

/** Takes `request` and says true, or leaves it untouched (for fastify) and says false. */
export type GraphqlShortcut = (
  request: IncomingMessage,
  response: ServerResponse,
  /** Fastify's handler, for a request whose body was read but is not the shortcut's. */
  fastify: (request: IncomingMessage, response: ServerResponse) => void,
) => boolean;

export interface GraphqlShortcutOptions {
  path: string;
  pipeline: Pipeline;
  /** The key's id when a request with it passes the access hook at once (no quota to count). */
  passingKeyId(presented: unknown, address: string | undefined): string | undefined;
  /** The backpressure hooks' bookkeeping. */
  admission: Admission;
  /** The metrics and line of an answered request, as fastify's completion step writes them. */
  requestLog: RequestLog;
  logger: FastifyBaseLogger;
  /** False while draining or closing: fastify then answers (with `Connection: close`, or 503). */
  open(): boolean;
  /** Bodies up to this long (Content-Length) are read here; longer ones take fastify's lanes. */
  maxBodyBytes: number;
}

/**
 * One request on its way through the shortcut, once its body is read. V8 may allocate
 * these in the old generation (it pretenures an allocation site whose objects outlived a
 * few scavenges, as the slow first requests after a start do); a dead one there would keep
 * what it refers to alive through every scavenge until the next full collection, so its
 * references are dropped once the request is answered or handed on ({@link drop}).
 */
interface Exchange {
  request: IncomingMessage | null;
  response: ServerResponse | null;
  fastify: ((request: IncomingMessage, response: ServerResponse) => void) | null;
  context: RequestContext | null;
  keyId: string;
  started: number;
}

/** Lets go of everything an exchange refers to. */
function drop(exchange: Exchange): void {
  exchange.request = null;
  exchange.response = null;
  exchange.fastify = null;
  exchange.context = null;
}

/**
 * The shortcut for the route at `path`. Only for a configuration in which a GraphQL answer
 * needs nothing but what is done here: no CORS headers and no proxy to read the client's
 * address from (app.ts decides); quotas are checked per request (`passingKeyId`).
 *
 * @example
 * const serve = (req, res) => shortcut(req, res, fastifyHandler) || fastifyHandler(req, res);
 */
export function createGraphqlShortcut(options: GraphqlShortcutOptions): GraphqlShortcut {
  const { path, pipeline, passingKeyId, admission, requestLog, logger, open, maxBodyBytes } =
    options;

  /** The request's parameters, or undefined when fastify must read its body. */
  function paramsOf(body: Buffer) {
    const text = body.toString();
    // Malformed or oversized JSON is fastify's to refuse, with its own answer.
    if (jsonShapeProblem(text, MAX_JSON_DEPTH, MAX_JSON_VALUES) !== undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    return shortcutBody(parsed);
  }

  /** The body has arrived: the request runs here, or goes to fastify. */
  function end(exchange: Exchange, body: Buffer): void {
    const { context } = exchange;
    if (context === null) return;
    let result: GraphqlResult | Promise<GraphqlResult>;
    try {
      const params = paramsOf(body);
      if (params === undefined) {
        handBack(exchange, body);
        return;
      }
      result = pipeline.run(params, context);
    } catch (error) {
      logger.error({ err: error, path }, "GraphQL shortcut failed");
      handBack(exchange, body);
      return;
    }
    if (isPromise(result)) {
      result.then(
        (done) => write(exchange, done),
        (error: unknown) => fail(exchange, error),
      );
    } else {
      write(exchange, result);
    }
  }

  /** Fastify answers the request, reading the body again; the connection stays taken. */
  function handBack(exchange: Exchange, body: Buffer): void {
    const { request, response, fastify } = exchange;
    drop(exchange);
    if (request === null || response === null || fastify === null) return;
    admission.handOver(request);
    replayBody(request, body);
    fastify(request, response);
  }

  function write(exchange: Exchange, result: GraphqlResult): void {
    const { request, response, context } = exchange;
    if (request === null || response === null || context === null) return;
    // Gone while an asynchronous result was awaited: nothing to send, nothing to count
    // (a large answer's count is returned on a `close` that has already been).
    if (response.destroyed) {
      drop(exchange);
      return;
    }
    try {
      const answer = answerOf(result);
      if (!admission.fits(request.socket, response, answer.body.length)) {
        // Past the bound of large answers waiting to be sent: no answer, as fastify's
        // hooks would end this connection after their 503.
        response.destroy();
        drop(exchange);
        return;
      }
      const requestId = context.req.id;
      const headers = answerHeaders(requestId);
      Object.assign(headers, answer.headers);
      headers["content-length"] = Buffer.byteLength(answer.body);
      // Taken before the drain began, answered during it: closing, as fastify's answers say.
      if (!open()) headers.connection = "close";
      response.writeHead(answer.status, headers);
      response.end(answer.body);
      requestLog.answered(
        logger,
        requestId,
        "POST",
        path,
        path,
        answer.status,
        performance.now() - exchange.started,
        exchange.keyId,
        request.socket.remoteAddress,
      );
      drop(exchange);
    } catch (error) {
      fail(exchange, error);
    }
  }

  /** A fault once the pipeline ran: the request is not run again, the connection closes. */
  function fail(exchange: Exchange, error: unknown): void {
    logger.error({ err: error, path }, "GraphQL shortcut failed");
    const { response } = exchange;
    drop(exchange);
    if (response !== null && !response.writableEnded) response.destroy();
  }

  return (request, response, fastify) => {
    try {
      const headers = request.headers;
      const length = headers["content-length"];
      // Anything else has something for fastify's hooks to do (a refusal, a heavy lane).
      if (
        request.url !== path ||
        !shortcutHeaders(request.method, headers) ||
        headers.host === undefined ||
        length === undefined ||
        headers["transfer-encoding"] !== undefined ||
        // Waiting for `100 Continue`: fastify's hooks send it once the key has passed.
        headers.expect !== undefined ||
        !(Number(length) <= maxBodyBytes) ||
        !open()
      ) {
        return false;
      }
      const socket = request.socket;
      // A request behind another on its connection waits its turn in the hooks.
      if (!admission.idle(socket)) return false;
      const keyId = passingKeyId(headers[API_KEY_HEADER], socket.remoteAddress);
      if (keyId === undefined) return false;
      const exchange: Exchange = {
        request,
        response,
        fastify,
        context: { req: { method: "POST", id: requestIdOf(request), log: logger } },
        keyId,
        started: performance.now(),
      };
      const chunks: Buffer[] = [];
      const onData = (chunk: Buffer) => {
        chunks.push(chunk);
      };
      // Taken until the answer is handed to the kernel, as the hooks take a connection.
      admission.take(socket, response, 0);
      request.on("data", onData);
      request.once("end", () => {
        request.removeListener("data", onData);
        end(exchange, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
      });
      // A connection reset mid-body: the socket's close releases the connection.
      request.on("error", ignore);
      return true;
    } catch (error) {
      logger.error({ err: error, path }, "GraphQL shortcut failed");
      return false;
    }
  };
}
