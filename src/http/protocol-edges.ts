/**
 * The requests Node answers by itself unless the server says otherwise: an `Expect` it
 * does not understand (an empty 417), `Expect: 100-continue` (a `100 Continue` before any
 * check), and `CONNECT` (the socket closed with no answer). Here each gets an answer in
 * the `{"detail": …}` shape and a request line like every other request.
 *
 * The server's listeners are added once per HTTP server: a reload builds a new app on the
 * same server (reload.ts), whose requests reach it through the server's one `request`
 * listener, so a listener here hands a request on by emitting `request` and never names
 * an app.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preParsingHookHandler,
} from "fastify";
import { kRouteContext, owedResponse } from "../runtime/internals.js";
import { writeError } from "./errors.js";
import { http } from "./node-http.js";
import { type RequestLog, requestIdOf, routeOf, UNMATCHED_ROUTE } from "./observability.js";
import { answerHeaders } from "./security.js";

/** At most how long a refused CONNECT's socket waits for its answer to drain. */
const CLOSE_GRACE_MS = 10_000;

/** Methods whose body no route reads (fastify's own list): no `100 Continue` invites one. */
const BODYLESS = new Set(["GET", "HEAD", "TRACE"]);

/** Requests that asked for `100 Continue` and have not been sent it yet. */
const awaitingContinue = new WeakSet<IncomingMessage>();

/** Servers whose listeners are set (once each, whatever the number of reloads). */
const equipped = new WeakSet<Server>();

type NotFoundContext = { handler(request: FastifyRequest, reply: FastifyReply): unknown };

/**
 * A route's `preParsing` (routes that read a body only, so no other request runs a hook
 * runner for it): the route has passed its access hooks (onRequest) and is about to read
 * the body, so a request waiting for `100 Continue` is sent it now.
 */
const continueWhenReading: preParsingHookHandler = (request, reply, payload, done) => {
  const raw = request.raw;
  if (raw.headers.expect !== undefined && awaitingContinue.delete(raw)) reply.raw.writeContinue();
  done(null, payload);
};

/**
 * `onRequest`, after the answer headers are set: a request no route matched that waits for
 * `100 Continue` is answered (404/405) at once, without it. Its answer never reads the
 * body, but fastify would read it first, and a client waiting for the 100 would wait out
 * REQUEST_TIMEOUT.
 */
export const answerUnroutedWithoutContinue: onRequestHookHandler = (request, reply, done) => {
  const raw = request.raw;
  if (
    raw.headers.expect === undefined ||
    routeOf(request) !== UNMATCHED_ROUTE ||
    !awaitingContinue.delete(raw)
  ) {
    done();
    return;
  }
  // The not-found context's handler is the app's not-found handler (errors.ts).
  (request as unknown as Record<symbol, NotFoundContext>)[kRouteContext]?.handler(request, reply);
};

/**
 * Registers the `preParsing` hook on each of `app`'s routes that reads a body and, on the
 * first app built on its server, the server's listeners. `requestLog` writes the line of
 * the 417, which no app answers. Call before any route is added.
 */
export function registerProtocolEdges(app: FastifyInstance, requestLog: RequestLog): void {
  app.addHook("onRoute", (route) => {
    if ([route.method].flat().every((method) => BODYLESS.has(method))) return;
    route.preParsing = [continueWhenReading, ...[route.preParsing ?? []].flat()];
  });
  const server = app.server;
  if (equipped.has(server)) return;
  equipped.add(server);
  // Node sends `100 Continue` itself unless this is listened for; the hooks above decide.
  server.on("checkContinue", function expectsContinue(this: Server, request, response) {
    awaitingContinue.add(request);
    this.emit("request", request, response);
  });
  // The logger and the metrics are the ones every reloaded app takes over.
  const log = app.log;
  server.on("checkExpectation", (request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now();
    const id = requestIdOf(request);
    // Closed after: the client may or may not send the body its expectation was about.
    writeError(response, 417, "Expectation Failed: only 100-continue is supported", {
      ...answerHeaders(id),
      connection: "close",
    });
    requestLog.answered(
      log,
      id,
      request.method ?? "",
      UNMATCHED_ROUTE,
      request.url ?? "",
      417,
      performance.now() - started,
      undefined,
      request.socket.remoteAddress,
    );
  });
  server.on("connect", answerConnect);
}

/**
 * CONNECT: no tunnel. Node has detached the socket from HTTP; it gets a response of its
 * own and goes to the app like any request, so it is answered as any method the service
 * does not serve (405 with `Allow` on a served path, else 404), then closed: what follows
 * the request on the wire would be tunnel bytes.
 */
function answerConnect(this: Server, request: IncomingMessage, socket: Socket): void {
  // Node removed its own error listener with the detach: a reset must not throw.
  socket.on("error", () => socket.destroy());
  answerWhenFree(this, request, socket);
}

/**
 * Answers once the answers owed to requests pipelined before the CONNECT are written: Node
 * hands the socket to each in turn as the one before finishes (its own 'finish' listener
 * runs before this one), and refuses a second response on a socket still held.
 */
function answerWhenFree(server: Server, request: IncomingMessage, socket: Socket): void {
  const owed = owedResponse(socket);
  if (owed) {
    owed.once("finish", () => answerWhenFree(server, request, socket));
    return;
  }
  // Closed, or closing after an owed answer that said `Connection: close`.
  if (socket.destroyed || !socket.writable) return;
  const response = new http.ServerResponse(request);
  response.shouldKeepAlive = false;
  response.assignSocket(socket);
  response.once("finish", () => {
    socket.end();
    socket.once("finish", () => socket.destroy());
    // A client that reads nothing keeps it no longer than this.
    const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
    socket.once("close", () => clearTimeout(timer));
  });
  server.emit("request", request, response);
}
