/**
 * The connections a server holds, and their bounds. A client can take connection slots
 * without sending a byte, so slots are kept for whoever comes next: a new connection is
 * always taken, and once more than `max` connections are open (or `perAddress` from one
 * client address), those idle the longest (nothing running, waiting or arriving on them)
 * are closed at the end of the event loop's turn. A connection is never closed in the
 * turn it arrived in, so a client that sends its request at once is read before it could
 * be chosen; a connection busy with a request is never closed to make room. Only past
 * twice a bound, with nothing idle to close, is a new connection refused: a 503, then
 * closed.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { idleSince } from "./backpressure.js";
import { rawErrorResponse } from "./errors.js";

/** What the process knows of an open connection. */
export interface Held {
  acceptedAt: number;
  address: string;
  /** The turn it arrived in: it may be closed to make room only in a later one. */
  turn: number;
}

export type Connections = Map<Socket, Held>;

export interface ConnectionLimits {
  /** Open connections at once (twice as many for a moment, while idle ones are closed). */
  max: number;
  /** Open connections from one client address; 0 for no bound (behind a proxy). */
  perAddress: number;
  /** Told of each refused connection and each idle one closed to make room. */
  onRefused?: (reason: "refused" | "evicted", scope: "address" | "process") => void;
}

/** How long a refused connection may take to read its 503 before it is cut. */
const REFUSAL_GRACE_MS = 1000;

const PER_ADDRESS_REFUSAL = rawErrorResponse(503, "Too many connections from this address", {
  "Retry-After": 1,
});
const PROCESS_REFUSAL = rawErrorResponse(503, "Too many connections", { "Retry-After": 1 });

const tracked = new WeakMap<Server, Connections>();

/** The connections of `server` recorded by {@link trackConnections} (an empty map if none). */
export function connectionsOf(server: Server): Connections {
  return tracked.get(server) ?? new Map();
}

/** Answers a connection that gets no slot, reading nothing from it (no request is parsed). */
function refuse(socket: Socket, answer: string): void {
  socket.pause();
  socket.setTimeout(REFUSAL_GRACE_MS, () => socket.destroy());
  socket.end(answer);
}

/**
 * Records `server`'s connections from now on and holds them to `limits` (call before it
 * listens; a second call for the same server returns the same record).
 */
export function trackConnections(server: Server, limits: ConnectionLimits): Connections {
  const existing = tracked.get(server);
  if (existing) return existing;
  const { max, perAddress, onRefused } = limits;
  const connections: Connections = new Map();
  const byAddress = new Map<string, Set<Socket>>();
  /** Addresses over their bound this turn. */
  const crowded = new Set<string>();
  /** Counts the event loop's turns that took connections; a trim ends each. */
  let turn = 0;
  let turnOpen = false;
  tracked.set(server, connections);

  const forget = (socket: Socket) => {
    const held = connections.get(socket);
    if (held === undefined) return;
    connections.delete(socket);
    const mine = byAddress.get(held.address);
    mine?.delete(socket);
    if (mine?.size === 0) byAddress.delete(held.address);
  };

  /**
   * Closes up to `count` of `candidates`, the idle ones idle the longest, arrived before
   * turn `before`; answers how many it closed.
   */
  const evict = (candidates: Iterable<Socket>, count: number, before: number): number => {
    const idle: { since: number; socket: Socket }[] = [];
    for (const socket of candidates) {
      const held = connections.get(socket);
      if (held === undefined || held.turn >= before) continue;
      const since = idleSince(socket, held.acceptedAt);
      if (since !== -1) idle.push({ since, socket });
    }
    if (idle.length > count) idle.sort((a, b) => a.since - b.since);
    const closing = idle.slice(0, count);
    for (const { socket } of closing) {
      forget(socket);
      socket.destroy();
    }
    return closing.length;
  };

  /**
   * The end of a turn that took connections: back within the bounds, closing idle
   * connections that arrived in an earlier turn (each has had a turn to be read).
   */
  const endTurn = () => {
    turnOpen = false;
    for (const address of crowded) {
      const mine = byAddress.get(address);
      if (mine && mine.size > perAddress) {
        const closed = evict(mine, mine.size - perAddress, turn);
        for (let i = 0; i < closed; i++) onRefused?.("evicted", "address");
      }
    }
    crowded.clear();
    if (connections.size > max) {
      // Over the process's bound (checked at the end of every turn that took connections).
      const closed = evict(connections.keys(), connections.size - max, turn);
      for (let i = 0; i < closed; i++) onRefused?.("evicted", "process");
    }
  };

  /**
   * Room for one more past twice a bound: the idlest connection that arrived two turns
   * ago or earlier (the last turn's may be being read now) closes; false when none.
   */
  const makeRoom = (candidates: Iterable<Socket>, scope: "address" | "process") => {
    if (evict(candidates, 1, turn - 1) === 0) return false;
    onRefused?.("evicted", scope);
    return true;
  };

  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    let mine = byAddress.get(address);
    if (!turnOpen) {
      turnOpen = true;
      turn += 1;
      setImmediate(endTurn);
    }
    const overAddress = perAddress > 0 && mine !== undefined && mine.size >= perAddress;
    if (overAddress) {
      crowded.add(address);
      if (
        (mine as Set<Socket>).size >= 2 * perAddress &&
        !makeRoom(mine as Set<Socket>, "address")
      ) {
        onRefused?.("refused", "address");
        return refuse(socket, PER_ADDRESS_REFUSAL);
      }
    }
    if (connections.size >= 2 * max && !makeRoom(connections.keys(), "process")) {
      onRefused?.("refused", "process");
      return refuse(socket, PROCESS_REFUSAL);
    }
    connections.set(socket, { acceptedAt: performance.now(), address, turn });
    if (mine === undefined) {
      mine = new Set();
      byAddress.set(address, mine);
    }
    mine.add(socket);
    socket.once("close", () => forget(socket));
  });
  return connections;
}
