/**
 * Every private internal of fastify, pino, Node, V8 and the MCP SDK the service reads, in one place:
 * where the public API would build an object per request (fastify's `routeOptions`,
 * `reply.header` six times, a pino child logger) or has no answer at all (which response a
 * socket owes; a collection that gives the young generation back; a request handed to the
 * MCP server past the SDK's message sorting). The versions are pinned
 * by the lock file; `internals.test.ts` fails on an upgrade that moves or reshapes any.
 */

import type { ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { Socket } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import pino from "pino";

/**
 * fastify's own symbols: a request's route context (`config.url` is the route template;
 * the not-found context's `handler`), and a reply's header object (replaced whole by the
 * answer headers).
 */
export const { kRouteContext, kReplyHeaders } = createRequire(import.meta.url)(
  "fastify/lib/symbols.js",
) as { kRouteContext: symbol; kReplyHeaders: symbol };

/**
 * pino's symbols for what the request line reads of a logger: its bindings as serialised
 * JSON (`,"pid":…,"hostname":…`), its time function (`,"time":…`) and its stream.
 */
export const { chindingsSym, streamSym, timeSym } = pino.symbols;

/** A pino logger's numeric level (`levelVal`: 30 for info), which pino keeps as a property. */
export function pinoLevel(logger: object): number | undefined {
  return (logger as { levelVal?: number }).levelVal;
}

/**
 * The response Node's HTTP server is writing on `socket` (`_httpMessage`), or undefined
 * when it owes none: what an answer written straight to the socket must wait for.
 */
export function owedResponse(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

type Gc = (options: { type: "major"; execution: "sync"; flavor?: "last-resort" }) => void;

/**
 * V8's full collection, taken without exposing `gc` to the service's own global scope.
 * `shrink` collects as V8 does before it gives up on memory: every weak reference cleared
 * and the young generation shrunk back, its pages returned (about 16 MB of RSS after
 * start with 8 MB semi-spaces). Several passes, so only where nobody waits.
 */
export function fullCollection(): (shrink?: boolean) => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as Gc;
  return (shrink = false) =>
    gc(
      shrink
        ? { type: "major", execution: "sync", flavor: "last-resort" }
        : { type: "major", execution: "sync" },
    );
}

/**
 * The MCP SDK server's request handling (`Protocol._onrequest`, bound to `server`): what its
 * `onmessage` calls for a request once it has sorted the message with three zod parses,
 * two of which fail on every request. Undefined when an SDK no longer has it.
 */
export function sdkRequestHandler<Request>(
  server: object,
): ((request: Request) => void) | undefined {
  const handle = (server as { _onrequest?: (request: Request) => void })._onrequest;
  return typeof handle === "function" ? handle.bind(server) : undefined;
}

/** A request handler as the MCP SDK keeps it: the request and the protocol's extra. */
export type SdkRequestHandler<Request> = (request: Request, extra: unknown) => unknown;

/**
 * The MCP SDK server's request handlers by method (`Protocol._requestHandlers`), each as
 * `setRequestHandler` installed it, checks included; undefined when an SDK no longer has
 * them.
 */
export function sdkRequestHandlers<Request>(
  server: object,
): Map<string, SdkRequestHandler<Request>> | undefined {
  const handlers = (server as { _requestHandlers?: unknown })._requestHandlers;
  return handlers instanceof Map
    ? (handlers as Map<string, SdkRequestHandler<Request>>)
    : undefined;
}
