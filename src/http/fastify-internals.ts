/**
 * Every private internal of fastify, pino and Node the service reads, in one place: where
 * the public API would build an object per request (fastify's `routeOptions`, `reply.header`
 * six times, a pino child logger) or has no answer at all (which response a socket owes).
 * fastify and pino are pinned by the lock file; `fastify-internals.test.ts` fails on an
 * upgrade that moves or reshapes any of them.
 */

import type { ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { Socket } from "node:net";
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
