/**
 * Closing the listener without losing a request. Node's `server.close()` also closes
 * every connection without a request in progress, including one just accepted whose
 * request is still on the wire and a kept-alive one the client is reusing at that moment:
 * those requests reached the server and got a reset. Here the listener stops accepting,
 * connections are left to finish what they received (every answer now says
 * `Connection: close`, so each closes after its next answer), and a connection is closed
 * by the server only once it has been idle for `idleGraceMs`.
 */
import type { Server } from "node:http";
import { Server as NetServer } from "node:net";
import { idleFor } from "./backpressure.js";
import type { Connections } from "./connections.js";

export interface DrainOptions {
  /** How long a connection must have been idle before the server closes it. */
  idleGraceMs: number;
  /** How often idle connections are looked for. */
  pollMs: number;
}

export const DEFAULT_DRAIN: Readonly<DrainOptions> = Object.freeze({
  idleGraceMs: 1000,
  pollMs: 50,
});

/**
 * Stops accepting and resolves once every connection of `server` has closed: those with
 * work finish it (and close after their `Connection: close` answer), idle ones are
 * closed after `idleGraceMs`.
 *
 * @example
 * await drainConnections(app.server, connections); await app.close();
 */
export function drainConnections(
  server: Server,
  connections: Connections,
  options: DrainOptions = DEFAULT_DRAIN,
): Promise<void> {
  return new Promise((resolve) => {
    // net's close: stop accepting, without http's closing of idle connections.
    NetServer.prototype.close.call(server);
    const poll = setInterval(() => {
      for (const [socket, { acceptedAt }] of connections) {
        if (idleFor(socket, options.idleGraceMs, acceptedAt)) socket.end();
      }
      if (connections.size === 0) {
        clearInterval(poll);
        resolve();
      }
    }, options.pollMs);
  });
}
