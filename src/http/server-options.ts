/**
 * How the HTTP server is configured: logging, request ids, timeouts and the size limits
 * every request meets before any route runs.
 */
import type { ServerOptions } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, FastifyServerFactory } from "fastify";
import type { Config } from "../config.js";
import { parseQueryString } from "../core/query.js";
import { logDestination } from "../observability/log-destination.js";
import type { Metrics } from "../observability/metrics.js";
import { BODY_LIMIT_BYTES } from "./backpressure.js";
import { trackConnections } from "./connections.js";
import { handleClientError, handleFrameworkError } from "./errors.js";
import { http } from "./node-http.js";
import { noChildLogger, type RequestLog, requestIdOf } from "./observability.js";

const { createServer } = http;

/** Header lines a request may have; past it Node answers 431 (22: ignores the rest). */
export const MAX_HEADER_LINES = 100;

export interface ServerOptionsInput {
  /** Pino logger options, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
  /** On a reload, the replaced app's logger, which the new app keeps. */
  replacingLog?: FastifyBaseLogger;
  serverFactory?: FastifyServerFactory;
  /** Fastify's log controller: the request line and the HTTP metrics. */
  requestLog: RequestLog;
}

/** Fastify's options for `config`. */
export function fastifyOptions(config: Config, metrics: Metrics, input: ServerOptionsInput) {
  return {
    ...(input.replacingLog
      ? { loggerInstance: input.replacingLog }
      : {
          // No logger (tests) is a silent one: fastify reports completed requests, and so
          // the HTTP metrics, only to an app with a logger.
          logger:
            input.logger === false
              ? { level: "silent" }
              : {
                  level: config.logLevel,
                  stream: logDestination((lines) => metrics.logLinesDropped.inc(lines)),
                  ...(typeof input.logger === "object" ? input.logger : {}),
                },
        }),
    ...(input.serverFactory ? { serverFactory: input.serverFactory } : {}),
    // One line per request, when it completes, without the query string, and the HTTP
    // metrics (see RequestLog); request-scoped lines name their request id themselves.
    logController: input.requestLog,
    childLoggerFactory: noChildLogger,
    genReqId: requestIdOf,
    trustProxy: config.trustProxy,
    // A 10,000-item list fits in a GET; a larger URL is a 431. Headers must arrive within
    // HEADERS_TIMEOUT (slow clients), a whole request within REQUEST_TIMEOUT; idle
    // keep-alive sockets live 65 s, longer than a load balancer's usual 60 s, so the
    // balancer closes them first.
    http: {
      maxHeaderSize: 128 * 1024,
      headersTimeout: Math.min(config.headersTimeoutSeconds, config.requestTimeoutSeconds) * 1000,
      // Node enforces both timeouts only when it checks, every 30 s by default.
      connectionsCheckingInterval: 500,
      // Node's own refusal of a request without Host has no body; `requireHost` answers it.
      requireHostHeader: false,
    },
    requestTimeout: config.requestTimeoutSeconds * 1000,
    keepAliveTimeout: 65_000,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: {
      ignoreTrailingSlash: false,
      maxParamLength: 200,
      // Fastify types the parsed query as a plain record; ours is a Map (rest/query.ts).
      querystringParser: parseQueryString as unknown as (query: string) => Record<string, unknown>,
    },
    return503OnClosing: true,
    clientErrorHandler: handleClientError,
    frameworkErrors: handleFrameworkError,
  };
}

/**
 * The HTTP server, made as fastify makes its own (its `serverFactory` contract): the
 * app's handler for every request, fastify's timeouts.
 */
export const httpServer: FastifyServerFactory = (handler, options) => {
  const {
    http = {},
    keepAliveTimeout,
    requestTimeout,
    connectionTimeout,
  } = options as {
    http?: ServerOptions;
    keepAliveTimeout?: number;
    requestTimeout?: number;
    connectionTimeout?: number;
  };
  const server = createServer(http, handler);
  if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
  if (requestTimeout !== undefined) server.requestTimeout = requestTimeout;
  server.setTimeout(connectionTimeout ?? 0);
  return server;
};

/**
 * The limits set on the Node server itself, once fastify has made it: header lines, and
 * the connections it holds (see connections.ts). A reload's app, whose server never
 * listens, sets them on that one.
 */
export function limitConnections(app: FastifyInstance, config: Config, metrics: Metrics): void {
  // Every header line is a string held until its request is answered: bounded in count
  // here, in bytes by maxHeaderSize and, once received, by the held-bytes bound.
  app.server.maxHeadersCount = MAX_HEADER_LINES;
  trackConnections(app.server, {
    max: config.maxConnections,
    // Behind a proxy every client comes from its address: the proxy bounds clients.
    perAddress: config.trustProxy === false ? config.maxConnectionsPerAddress : 0,
    onRefused: (reason, scope) => metrics.connectionsRefused.inc({ reason, scope }),
  });
}
