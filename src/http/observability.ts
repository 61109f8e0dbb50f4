/**
 * Request ids, one log line per request, and HTTP metrics. The log line carries the
 * path without its query string (queries can hold secrets: an HMAC key, a text) and the
 * key's id, never the key.
 *
 * Written for the per-request path: no child logger per request (request-scoped lines
 * add `requestId` themselves), the request line assembled from pre-serialised parts and
 * written straight to the log's stream, metrics tallied into per-route series.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import { keepShapes } from "../observability/idle-collection.js";
import type { HttpStats } from "../observability/metrics.js";
import {
  chindingsSym,
  kRouteContext,
  pinoLevel,
  streamSym,
  timeSym,
} from "../runtime/internals.js";

export const REQUEST_ID_HEADER = "x-request-id";

/** What a client may choose as a request id: short, and safe to echo and to log. */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

/**
 * Generated ids: a UUID drawn once per process, its last 12 hex digits replaced by a
 * counter. Unique per process and across processes (the prefix), without drawing random
 * bytes per request.
 */
const ID_PREFIX = randomUUID().slice(0, 24);
const ID_COUNTER_LIMIT = 2 ** 48;
let idCounter = 0;

/**
 * The request id: the client's `X-Request-Id` when well-formed, else a new one, shaped
 * as a UUID.
 *
 * @example
 * requestIdOf({ headers: { "x-request-id": "abc-123" } } as IncomingMessage); // "abc-123"
 */
export function requestIdOf(request: IncomingMessage): string {
  const offered = request.headers[REQUEST_ID_HEADER];
  if (typeof offered === "string" && WELL_FORMED_REQUEST_ID.test(offered)) return offered;
  idCounter = (idCounter + 1) % ID_COUNTER_LIMIT;
  return ID_PREFIX + idCounter.toString(16).padStart(12, "0");
}

// fastify's public `request.routeOptions` builds a new object on every read; its route
// context (the same data, built once per route) is reached through fastify's own symbol.
type RouteContext = { config?: { url?: string } };

/** The label for requests no route matched. */
export const UNMATCHED_ROUTE = "(unmatched)";

/** The route template for labels and logs; unmatched URLs share one label. */
export function routeOf(request: FastifyRequest): string {
  const context = (request as unknown as Record<symbol, RouteContext | undefined>)[kRouteContext];
  return context?.config?.url ?? UNMATCHED_ROUTE;
}

const MAX_LOGGED_PATH = 200;

/** What stands for a target that names no path: CONNECT's `host:port`. */
export const NOT_A_PATH = "(authority)";

/**
 * The path a request target names, without its query string. An absolute-form target
 * (`http://host/p?q`, which RFC 9112 §3.2.2 says a server must accept, and which fastify
 * routes by its path) loses its scheme and authority: the host is the client's choice,
 * and nothing that names it is logged or looked up.
 *
 * @example
 * targetPath("http://evil.example/v1/math/sum?numbers=1"); // "/v1/math/sum"
 */
export function targetPath(url: string): string {
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  if (path.charCodeAt(0) === 47 || path === "*") return path;
  const scheme = path.indexOf("://");
  if (scheme === -1) return NOT_A_PATH;
  const slash = path.indexOf("/", scheme + 3);
  return slash === -1 ? "/" : path.slice(slash);
}

/** The target's path, shortened for the log. */
function pathOf(url: string): string {
  const path = targetPath(url);
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
}

/** The child-logger factory: the logger itself, so no request pays for a child. */
export function noChildLogger(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger;
}

const INFO = 30;
/** What the request line reads of pino: its bindings, clock and stream. */
type PinoInternals = Record<symbol, unknown>;

/**
 * A route template's fields, serialised once per template: `,"route":"<template>"`, and
 * with `,"path":"<template>"` after it, the line of a request whose path is the template
 * itself (every route without parameters).
 */
interface RouteFields {
  route: string;
  routeAndPath: string;
}
const routeFields = new Map<string, RouteFields>();
function routeFieldsOf(route: string): RouteFields {
  let fields = routeFields.get(route);
  if (fields === undefined) {
    const routeJson = `,"route":${JSON.stringify(route)}`;
    fields = { route: routeJson, routeAndPath: `${routeJson},"path":${JSON.stringify(route)}` };
    routeFields.set(route, fields);
  }
  return fields;
}

/** Whether the path of `url` (origin form) is `route` itself: `route`, then the end or `?`. */
function pathIsRoute(url: string, route: string): boolean {
  return (
    route.length <= MAX_LOGGED_PATH &&
    url.startsWith(route) &&
    (url.length === route.length || url.charCodeAt(route.length) === 63) /* ? */
  );
}

/** `,"remoteAddress":"<address>"` of the last address logged: clients send many requests. */
let lastAddress: string | undefined;
let lastAddressField = "";
function addressField(address: string): string {
  if (address !== lastAddress) {
    lastAddressField = `,"remoteAddress":${JSON.stringify(address)}`;
    lastAddress = address;
  }
  return lastAddressField;
}

function methodField(method: string): string {
  if (method === "GET") return ',"method":"GET"';
  if (method === "POST") return ',"method":"POST"';
  return `,"method":${JSON.stringify(method)}`;
}

/**
 * Fastify's log controller: no line when a request arrives; when it completes, the HTTP
 * metrics, and one line with the route template, status, duration and the key's id.
 * Running inside fastify's own completion step costs less than an extra hook. The line
 * is the JSON pino writes for `log.info({…}, "request")`, assembled from pre-serialised
 * parts; only the path and the address, which come from outside, go through
 * `JSON.stringify`. Other request-scoped lines carry `requestId` explicitly.
 */
export class RequestLog extends LogController {
  private readonly http: HttpStats | undefined;

  constructor(http?: HttpStats) {
    super({ requestIdLogLabel: "requestId" });
    this.http = http;
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const route = routeOf(request);
    // Keyed by the context's Request class: one exemplar per encapsulated scope.
    keepShapes(request.constructor, reply, request.url.length, request.headers);
    if (error) {
      this.http?.record(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      reply.log.error(
        {
          requestId: request.id,
          ...lineFields(
            request.method,
            route,
            request.url,
            reply.statusCode,
            reply.elapsedTime,
            request.apiKeyId,
            request.ip,
          ),
          err: error,
        },
        "request",
      );
      return;
    }
    this.answered(
      reply.log,
      request.id,
      request.method,
      route,
      request.url,
      reply.statusCode,
      reply.elapsedTime,
      request.apiKeyId,
      request.ip,
    );
  }

  /**
   * The metrics and the line of one answered request: fastify's completion step calls it,
   * and so do the protocol edges (protocol-edges.ts) for the answers they write themselves.
   */
  answered(
    logger: FastifyBaseLogger,
    requestId: string,
    method: string,
    route: string,
    url: string,
    status: number,
    elapsedMs: number,
    keyId: string | undefined,
    address: string | undefined,
  ): void {
    this.http?.record(method, route, status, elapsedMs / 1000);
    const log = logger as FastifyBaseLogger & PinoInternals;
    const level = pinoLevel(log);
    if (!(level !== undefined && level <= INFO)) return;
    const stream = log[streamSym] as { write(line: string): unknown } | undefined;
    const time = log[timeSym] as (() => string) | undefined;
    if (stream === undefined || time === undefined) {
      log.info(
        { requestId, ...lineFields(method, route, url, status, elapsedMs, keyId, address) },
        "request",
      );
      return;
    }
    const fields = routeFieldsOf(route);
    // Request ids are requestIdOf's (genReqId): characters JSON writes as they are.
    stream.write(
      `{"level":30${time()}${(log[chindingsSym] as string | undefined) ?? ""},"requestId":"${requestId}"` +
        methodField(method) +
        (pathIsRoute(url, route)
          ? fields.routeAndPath
          : `${fields.route},"path":${JSON.stringify(pathOf(url))}`) +
        `,"status":${status},"durationMs":${roundedMs(elapsedMs)}` +
        (keyId === undefined ? "" : `,"keyId":"${keyId}"`) +
        (address === undefined ? "" : addressField(address)) +
        ',"msg":"request"}\n',
    );
  }

  // fastify's own request-scoped lines, with the request id the child logger used to add.
  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    const level = reply.statusCode >= 500 ? "error" : "info";
    reply.log[level]({ requestId: request.id, err: error }, error?.message);
  }

  override streamError(
    error: Error & { code?: string },
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error.code === "ERR_STREAM_PREMATURE_CLOSE") {
      reply.log.info({ requestId: request.id }, "stream closed prematurely");
    } else {
      reply.log.warn(
        { requestId: request.id, err: error },
        "response terminated with an error with headers already sent",
      );
    }
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.info({ requestId: request.id }, "route not found");
  }

  override writeHeadError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    reply.log.warn({ requestId: request.id, err: error }, error?.message);
  }

  override serializerError(
    error: Error,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata: { statusCode: number },
  ): void {
    reply.log.error(
      { requestId: request.id, err: error, statusCode: metadata.statusCode },
      "The serializer for the given status code failed",
    );
  }
}

/** A duration as the request line gives it: milliseconds to two decimals. */
function roundedMs(elapsedMs: number): number {
  return Math.round(elapsedMs * 100) / 100;
}

/** The request line's fields, as an object (the rare lines pino writes itself). */
function lineFields(
  method: string,
  route: string,
  url: string,
  status: number,
  elapsedMs: number,
  keyId: string | undefined,
  address: string | undefined,
) {
  return {
    method,
    route,
    path: pathOf(url),
    status,
    durationMs: roundedMs(elapsedMs),
    keyId,
    remoteAddress: address,
  };
}
