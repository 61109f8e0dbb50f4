/**
 * Every private internal of fastify, Node and V8 the service relies on, in one place, each
 * where the public API would cost a per-request object or has no equivalent. The versions
 * are pinned by the lock file; internals.test.ts fails on an upgrade that moves any of them.
 */
import type { ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { Socket } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * fastify's symbols for a request's route context (its config and handler: the route
 * label of logs and metrics, and the 404 handler) and a reply's header object (set whole,
 * once, rather than header by header).
 */
export const { kRouteContext, kReplyHeaders } = createRequire(import.meta.url)(
  "fastify/lib/symbols.js",
) as { kRouteContext: symbol; kReplyHeaders: symbol };

/**
 * The response Node's HTTP server is still writing on `socket` (an answer owed to a
 * pipelined request), or null: Node keeps it as the socket's `_httpMessage`, and says so
 * nowhere else.
 */
export function pendingResponse(socket: Socket): ServerResponse | null {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
}

/**
 * V8's full collection (`gc`), taken without exposing it in the service's own global
 * scope: `--expose-gc` set at run time applies to contexts made after it.
 */
export function fullCollection(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
