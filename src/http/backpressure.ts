/**
 * Backpressure: no client, however slowly it reads, makes the process hold unbounded
 * output. Each connection runs one request at a time: a pipelined request waits until the
 * answer before it has been handed to the kernel (node then also stops reading the
 * socket), so a client that sends and never reads stops being served once its socket
 * buffers are full. Past `maxWaiting` requests waiting on one connection, or when a large
 * answer or waiting requests see the connection's output not move for `stallMs`, the
 * connection is closed. Large answers not yet handed to the kernel are counted
 * process-wide; past `maxUnsentBytes`, a new large answer is replaced by a 503 and its
 * connection closed. Large requests are counted the same way, from their headers on (URL,
 * header lines and declared body): their text is held while the body arrives and while
 * they wait. Past `maxHeldRequestBytes` a new large request is not read: 503, or its
 * connection closed when an answer is already due on it.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from "fastify";
import { errorBody, sendError } from "./errors.js";

/** The largest request body any route reads; past it, 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface BackpressureOptions {
  /** Requests one connection may have waiting behind the one it runs. */
  maxWaiting: number;
  /** How long waiting requests may see their connection's output not move. */
  stallMs: number;
  /** Answers at least this long count towards `maxUnsentBytes` until sent. */
  largeAnswerBytes: number;
  /** Bytes of large answers the process holds, not yet taken by the kernel. */
  maxUnsentBytes: number;
  /** A request whose URL, headers and declared body are this long counts towards `maxHeldRequestBytes`. */
  largeRequestBytes: number;
  /** Bytes of large requests the process holds, from their headers until their answer. */
  maxHeldRequestBytes: number;
  /** What a body without Content-Length may grow to (the body limit). */
  maxBodyBytes: number;
}

export const DEFAULT_BACKPRESSURE: Readonly<BackpressureOptions> = Object.freeze({
  maxWaiting: 16,
  stallMs: 5000,
  largeAnswerBytes: 8 * 1024,
  maxUnsentBytes: 16 * 1024 * 1024,
  largeRequestBytes: 8 * 1024,
  maxHeldRequestBytes: 16 * 1024 * 1024,
  maxBodyBytes: BODY_LIMIT_BYTES,
});

const STATE: unique symbol = Symbol("connection state");

/**
 * One per connection: whether a request runs, and who waits behind it. Its `release` is
 * bound once per connection, so a request adds a listener without allocating one.
 */
class ConnectionState {
  running = false;
  readonly waiting: HookHandlerDoneFunction[] = [];
  stallTimer: NodeJS.Timeout | undefined = undefined;
  flushedAtArm = 0;
  /** When the connection last had nothing to do, and how much it had read by then. */
  idleSince = 0;
  readAtIdle = 0;
  readonly release: () => void;

  constructor(readonly socket: Socket) {
    this.release = () => this.next();
  }

  /** The answer was handed to the kernel (res 'close'), or the connection ended: the next waiting request runs. */
  private next(): void {
    this.running = false;
    const next = this.waiting.shift();
    if (next === undefined) {
      this.idleSince = performance.now();
      this.readAtIdle = this.socket.bytesRead;
      return;
    }
    // Closed, or closing (ended after its last answer): what waits would be answered to nobody.
    if (this.socket.destroyed || !this.socket.writable) {
      this.waiting.length = 0;
      return;
    }
    this.running = true;
    next();
  }
}

type WithState<T> = T & { [STATE]?: ConnectionState };

/** Bytes the kernel has taken (`bytesWritten` also counts what still waits in node). */
const flushed = (socket: Socket) => socket.bytesWritten - socket.writableLength;

/**
 * Registers the hooks on `app` (before any other onRequest hook: nothing runs for a
 * request that waits).
 */
export function registerBackpressure(
  app: FastifyInstance,
  options: BackpressureOptions = DEFAULT_BACKPRESSURE,
): void {
  const {
    maxWaiting,
    stallMs,
    largeAnswerBytes,
    maxUnsentBytes,
    largeRequestBytes,
    maxHeldRequestBytes,
    maxBodyBytes,
  } = options;
  let unsentBytes = 0;
  let heldRequestBytes = 0;

  /**
   * A request's URL, header lines and the body it declares (or may send, without
   * Content-Length): what the process holds for it.
   */
  function requestBytes(request: FastifyRequest): number {
    const headers = request.headers;
    const raw = request.raw.rawHeaders;
    // Each line's name and value, and its ": " and CRLF.
    let headerBytes = raw.length * 2;
    for (let i = 0; i < raw.length; i++) headerBytes += (raw[i] as string).length;
    const declared =
      headers["content-length"] !== undefined
        ? Number(headers["content-length"]) || 0
        : headers["transfer-encoding"] !== undefined
          ? maxBodyBytes
          : 0;
    // Past the limit a body is refused (413) as it arrives, not held.
    return request.url.length + headerBytes + Math.min(declared, maxBodyBytes);
  }

  function checkStall(state: ConnectionState): void {
    state.stallTimer = undefined;
    const { socket } = state;
    // Stuck: output waits in node, requests wait here, or node stopped reading the socket
    // because the client does not take what was written (pipelined requests unread).
    const stuck = state.waiting.length > 0 || socket.writableLength > 0 || socket.isPaused();
    if (socket.destroyed || !stuck) return;
    if (flushed(socket) === state.flushedAtArm) {
      socket.destroy();
      return;
    }
    armStall(state);
  }

  function armStall(state: ConnectionState): void {
    if (state.stallTimer) return;
    state.flushedAtArm = flushed(state.socket);
    state.stallTimer = setTimeout(checkStall, stallMs, state);
    state.stallTimer.unref();
  }

  function onSocketClose(this: WithState<Socket>): void {
    const state = this[STATE];
    if (!state) return;
    state.waiting.length = 0;
    if (state.stallTimer) clearTimeout(state.stallTimer);
  }

  /** The connection's state, made on its first request; undefined for injected requests. */
  function stateOf(socket: WithState<Socket>): ConnectionState | undefined {
    let state = socket[STATE];
    if (!state) {
      // Injected requests (tests) have no real connection to protect. Checked once per
      // connection: `bytesWritten` is a getter that sums node's write queue.
      if (typeof socket.bytesWritten !== "number") return undefined;
      state = new ConnectionState(socket);
      socket[STATE] = state;
      socket.once("close", onSocketClose);
    }
    return state;
  }

  /** Counts a large answer until the kernel has it; false when the bound would be passed. */
  function holdAnswer(response: ServerResponse, size: number, state: ConnectionState | undefined) {
    if (unsentBytes + size > maxUnsentBytes) return false;
    // Large answers are rare: a closure each is no cost worth avoiding.
    unsentBytes += size;
    response.once("close", () => {
      unsentBytes -= size;
    });
    if (state) armStall(state);
    return true;
  }

  app.addHook(
    "onRequest",
    function oneAtATime(
      request: FastifyRequest,
      reply: FastifyReply,
      done: HookHandlerDoneFunction,
    ) {
      const socket = request.raw.socket as WithState<Socket> | null;
      const state = socket ? stateOf(socket) : undefined;
      if (!socket || !state) return done();
      const bytes = requestBytes(request);
      const large = bytes >= largeRequestBytes;
      const refused = large && heldRequestBytes + bytes > maxHeldRequestBytes;
      if (refused && state.running) {
        // An answer is due first on this connection: this one cannot be answered out of turn.
        socket.destroy();
        return;
      }
      if (large && !refused) {
        // Large requests are rare: a closure each is no cost worth avoiding.
        heldRequestBytes += bytes;
        reply.raw.once("close", () => {
          heldRequestBytes -= bytes;
        });
      }
      reply.raw.on("close", state.release);
      if (!state.running) {
        state.running = true;
        if (refused) {
          sendError(reply, 503, "Service Unavailable", { "retry-after": "1", connection: "close" });
          return;
        }
        return done();
      }
      if (state.waiting.length >= maxWaiting) {
        // Pipelining far ahead of what it reads: the bound is reached, the connection goes.
        socket.destroy();
        return;
      }
      state.waiting.push(done);
      armStall(state);
    },
  );

  app.addHook("onSend", (request, reply, payload, done) => {
    const size =
      typeof payload === "string" ? payload.length : Buffer.isBuffer(payload) ? payload.length : 0;
    if (size < largeAnswerBytes) return done(null, payload);
    const state = (request.raw.socket as WithState<Socket> | null)?.[STATE];
    if (!holdAnswer(reply.raw, size, state)) {
      reply
        .code(503)
        .header("content-type", "application/json; charset=utf-8")
        .header("retry-after", "1")
        .header("connection", "close");
      return done(null, errorBody("Service Unavailable"));
    }
    done(null, payload);
  });
}

/**
 * Since when `socket` has been idle (a `performance.now()` time), or -1 while it is busy:
 * a request running or waiting, an answer left to send, or a byte read since its last
 * answer (a request may be arriving). A connection that has not had a request yet is
 * idle from `acceptedAt` until its first byte.
 */
export function idleSince(socket: Socket, acceptedAt: number): number {
  const state = (socket as WithState<Socket>)[STATE];
  if (socket.writableLength > 0) return -1;
  if (!state) return socket.bytesRead === 0 ? acceptedAt : -1;
  return !state.running && state.waiting.length === 0 && socket.bytesRead === state.readAtIdle
    ? state.idleSince
    : -1;
}

/**
 * Whether `socket` has been idle for `graceMs` (see {@link idleSince}).
 *
 * @example
 * if (idleFor(socket, 1000, acceptedAt)) socket.end(); // during shutdown
 */
export function idleFor(socket: Socket, graceMs: number, acceptedAt: number): boolean {
  const since = idleSince(socket, acceptedAt);
  return since !== -1 && performance.now() - since >= graceMs;
}
