/**
 * The one place that writes error responses. Every error body is `{"detail": …}`:
 * a sentence, or for invalid input the Pydantic-style list of problems.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from "fastify";
import { locate } from "../core/problems.js";
import { InvalidInputError, NotFoundError } from "../core/runner.js";
import type { Problem } from "../kit/errors.js";
import { owedResponse } from "../runtime/internals.js";
import { http } from "./node-http.js";
import { targetPath } from "./observability.js";

const { STATUS_CODES } = http;

export type Detail = string | Problem[];

/** The body of every error response: `{"detail": …}`. */
export function errorBody(detail: Detail): string {
  return JSON.stringify({ detail });
}

/**
 * A whole error response, status line to body, for a socket no `ServerResponse` writes
 * to (Node refused the request, or the connection is refused before one exists). The
 * connection closes after it.
 */
export function rawErrorResponse(
  status: number,
  detail: Detail,
  headers: Record<string, string | number> = {},
): string {
  const body = errorBody(detail);
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  return `${head}Connection: close\r\n\r\n${body}`;
}

/**
 * Sends `{"detail": detail}` with `status` and extra `headers`.
 *
 * @example
 * return sendError(reply, 404, "Not Found");
 */
export function sendError(
  reply: FastifyReply,
  status: number,
  detail: Detail,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .code(status)
    .headers(headers)
    .type("application/json; charset=utf-8")
    .send(errorBody(detail));
}

/**
 * Writes `{"detail": detail}` with `status` and `headers` on a response fastify never sees
 * (protocol-edges.ts: an expectation Node would refuse with an empty 417).
 */
export function writeError(
  response: ServerResponse,
  status: number,
  detail: Detail,
  headers: Record<string, string | number>,
): void {
  const body = errorBody(detail);
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  response.end(body);
}

/**
 * Fastify's error handler: known errors keep their status and message; anything else is
 * logged and answered with a bare 500, never a stack trace.
 */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof InvalidInputError) {
    return sendError(reply, 422, locate(error.problems, "query"));
  }
  if (error instanceof NotFoundError) return sendError(reply, 404, error.message);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return sendError(reply, status, error.message || "Bad Request");
  }
  request.log.error({ requestId: request.id, err: error }, "unexpected fault");
  return sendError(reply, 500, "Internal Server Error");
}

/**
 * Fastify's `frameworkErrors`: a request its router refuses before any route (a path that
 * is not valid percent-encoded UTF-8, `/v1/%ff/sum`) is answered in the `{"detail": …}`
 * shape like every other refusal, not in fastify's own.
 */
export function handleFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode ?? 400;
  if (error.code === "FST_ERR_BAD_URL") {
    sendError(reply, 400, "Bad Request: the path is not valid percent-encoded UTF-8");
  } else {
    sendError(reply, status, STATUS_CODES[status] ?? "Bad Request");
  }
}

/** At most how long an answered client error's socket waits for its answer to drain. */
const CLOSE_GRACE_MS = 10_000;

/** Connections that close once the answer they owe is written (see handleClientError). */
const closingAfterAnswer = new WeakSet<Socket>();

/**
 * Answers a request Node refused before fastify saw it (headers too large, malformed,
 * too slow) in the same `{"detail": …}` shape, then closes the connection.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  // Node goes on reading, and refuses each later chunk again: decided once per connection
  // (below), and its half-closed socket is not cut while the answer is still on its way.
  if (closingAfterAnswer.has(socket) && error.code !== "ECONNRESET") return;
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  // An answer is owed to a request received whole (the bytes refused came after it): a 400
  // written now would be read as its answer. The connection is half-closed once that
  // answer is written, and closed when the client closes or after the grace: closing it
  // outright while the client still sends would reset it, and lose the answer with it.
  // Requests behind it get no answer; their client sees the close, as after any dropped
  // connection, rather than a wrong answer. A request refused part-way (its body too slow
  // or malformed) gets the error as its answer, below.
  const owed = owedResponse(socket);
  if (owed?.req?.complete) {
    closingAfterAnswer.add(socket);
    owed.once("finish", () => socket.end());
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
    return;
  }
  const status =
    error.code === "HPE_HEADER_OVERFLOW"
      ? 431
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? 408
        : 400;
  socket.end(rawErrorResponse(status, STATUS_CODES[status] ?? "Bad Request"));
  // Closed outright once the answer is written: a client that never closes its side would
  // otherwise keep the socket, and its slot among maxConnections, for as long as it likes.
  // (The kernel still delivers what was written.) A client that reads nothing gets as long
  // as a slow client's headers get.
  socket.once("finish", () => socket.destroy());
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
}

/**
 * `onRequest` hook refusing an HTTP/1.1 request without a `Host` header (RFC 9112 §3.2)
 * with a JSON 400. Node would refuse it itself, with an empty body; the app turns that
 * off (`requireHostHeader: false`) so that this answer is the one sent.
 */
export function requireHost(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const raw = request.raw;
  if (raw.headers.host !== undefined || raw.httpVersionMinor !== 1 || raw.httpVersionMajor !== 1) {
    done();
    return;
  }
  sendError(reply, 400, "Bad Request: an HTTP/1.1 request must carry a Host header", {
    connection: "close",
  });
}

/**
 * Unknown routes: 405 with `Allow` when the path exists under another method, else 404.
 * Call before registering routes: it learns each path's methods as they are added.
 */
export function registerNotFound(app: FastifyInstance): void {
  const methods = new Map<string, Set<string>>();
  app.addHook("onRoute", (route) => {
    const set = methods.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) set.add(method);
    methods.set(route.url, set);
  });
  app.setNotFoundHandler((request, reply) => {
    const allowed = methods.get(targetPath(request.url));
    if (allowed) {
      return sendError(reply, 405, "Method Not Allowed", { allow: [...allowed].sort().join(", ") });
    }
    return sendError(reply, 404, "Not Found");
  });
}
