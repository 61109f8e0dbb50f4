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
  passingKeyId(presented: unknown): string | undefined;
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

/** One request on its way through the shortcut: its body as it arrives, then its answer. */
class Exchange {
  readonly chunks: Buffer[] = [];
  readonly context: RequestContext;
  onData: (chunk: Buffer) => void = ignore;

  constructor(
    readonly request: IncomingMessage,
    readonly response: ServerResponse,
    readonly fastify: (request: IncomingMessage, response: ServerResponse) => void,
    readonly keyId: string,
    readonly started: number,
    requestId: string,
    logger: FastifyBaseLogger,
  ) {
    this.context = { req: { method: "POST", id: requestId, log: logger } };
  }
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

  function end(exchange: Exchange): void {
    const { request, chunks } = exchange;
    request.removeListener("data", exchange.onData);
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    let result: GraphqlResult | Promise<GraphqlResult>;
    try {
      const params = paramsOf(body);
      if (params === undefined) {
        handBack(exchange, body);
        return;
      }
      result = pipeline.run(params, exchange.context);
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
    admission.handOver(exchange.request);
    replayBody(exchange.request, body);
    exchange.fastify(exchange.request, exchange.response);
  }

  function write(exchange: Exchange, result: GraphqlResult): void {
    const { request, response } = exchange;
    // Gone while an asynchronous result was awaited: nothing to send, nothing to count
    // (a large answer's count is returned on a `close` that has already been).
    if (response.destroyed) return;
    try {
      const answer = answerOf(result);
      if (!admission.fits(request.socket, response, answer.body.length)) {
        // Past the bound of large answers waiting to be sent: no answer, as fastify's
        // hooks would end this connection after their 503.
        response.destroy();
        return;
      }
      const requestId = exchange.context.req.id;
      const headers = answerHeaders(requestId);
      Object.assign(headers, answer.headers);
      headers["content-length"] = Buffer.byteLength(answer.body);
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
    } catch (error) {
      fail(exchange, error);
    }
  }

  /** A fault once the pipeline ran: the request is not run again, the connection closes. */
  function fail(exchange: Exchange, error: unknown): void {
    logger.error({ err: error, path }, "GraphQL shortcut failed");
    if (!exchange.response.writableEnded) exchange.response.destroy();
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
        !(Number(length) <= maxBodyBytes) ||
        !open()
      ) {
        return false;
      }
      const socket = request.socket;
      // A request behind another on its connection waits its turn in the hooks.
      if (!admission.idle(socket)) return false;
      const keyId = passingKeyId(headers[API_KEY_HEADER]);
      if (keyId === undefined) return false;
      const exchange = new Exchange(
        request,
        response,
        fastify,
        keyId,
        performance.now(),
        requestIdOf(request),
        logger,
      );
      exchange.onData = (chunk) => exchange.chunks.push(chunk);
      // Taken until the answer is handed to the kernel, as the hooks take a connection.
      admission.take(socket, response, 0);
      request.on("data", exchange.onData);
      request.once("end", () => end(exchange));
      // A connection reset mid-body: the socket's close releases the connection.
      request.on("error", ignore);
      return true;
    } catch (error) {
      logger.error({ err: error, path }, "GraphQL shortcut failed");
      return false;
    }
  };
}
