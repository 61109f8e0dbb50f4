/**
 * Fairness under expensive requests. A request whose input is large (a long query string,
 * a large body) may take tens of milliseconds of CPU; several of them read in one turn of
 * the event loop would run back to back while every cheap request waits behind all of
 * them. Here such requests take a lane of their own: one runs per turn of the event loop
 * (from `setImmediate`), so cheap requests that arrived meanwhile are answered between
 * two heavy ones and wait for at most one. At most `maxWaiting` heavy requests wait (each
 * holds its parsed input); past that a heavy request gets 503 with `Retry-After`.
 *
 * A short request may ask for a large answer (FizzBuzz of 10,000 long items: ~3.2 MB,
 * milliseconds to serialise and write). Such an answer, known from the size its operation
 * declares (core/budget.ts), is serialised and written in the lane too: the calculation
 * runs at once, its answer waits for its turn. Past `maxWaiting` it goes out at once
 * rather than be refused: the work is done, and the bound only caps what waits.
 *
 * Serialised whole, such an answer still held the loop for one long turn (JSON.stringify,
 * then encoding the string for the socket): a cheap request arriving then waited for all of
 * it. So its JSON is made and encoded a piece (`pieceBytes`) per turn, into one buffer sized
 * from the declaration, which fastify then writes as it is (same bytes, same headers).
 *
 * A request may also be heavy for what only its surface knows (a long GraphQL document not
 * yet prepared: parsed, validated and compiled for it). The surface says so by setting
 * `request.heavy` in a hook that runs before this one (`preValidation`); the lane reads
 * it beside the URL and the body, and knows nothing of the surface.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from "fastify";
import { declaredAnswer } from "../core/budget.js";
import { sendError } from "./errors.js";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * Set by a surface's hook before the lane's (false by default, declared once in app.ts):
     * the request will cost much CPU whatever its size, so it takes the lane.
     */
    heavy: boolean;
  }
}

export interface HeavyLaneOptions {
  /** A request whose URL (path and query) is longer is heavy. */
  heavyUrlBytes: number;
  /** A request whose body is longer (Content-Length) is heavy. */
  heavyBodyBytes: number;
  /** An answer whose operation declares it this long (bytes) is serialised in the lane. */
  heavyAnswerBytes: number;
  /** Heavy requests (and heavy answers) that may wait for their turn. */
  maxWaiting: number;
  /** Characters of a heavy answer's JSON made per turn of the event loop. */
  pieceBytes: number;
}

export const DEFAULT_HEAVY_LANE: Readonly<HeavyLaneOptions> = Object.freeze({
  heavyUrlBytes: 2048,
  heavyBodyBytes: 8192,
  heavyAnswerBytes: 256 * 1024,
  maxWaiting: 16,
  pieceBytes: 64 * 1024,
});

/**
 * Whether a request with this URL and declared body (`Content-Length`) takes the lane.
 *
 * @example
 * isHeavy("/v1/math/sum?numbers=1,2", undefined); // false
 */
export function isHeavy(
  url: string,
  contentLength: string | undefined,
  options: HeavyLaneOptions = DEFAULT_HEAVY_LANE,
): boolean {
  return (
    url.length > options.heavyUrlBytes ||
    (contentLength !== undefined && Number(contentLength) > options.heavyBodyBytes)
  );
}

/**
 * Registers the lane as a `preHandler` hook: after authentication (a request without a
 * valid key is refused before it can take a place in the lane) and body parsing, before
 * the calculation, which is the work the lane spaces out.
 */
export function registerHeavyLane(
  app: FastifyInstance,
  options: HeavyLaneOptions = DEFAULT_HEAVY_LANE,
): void {
  const { maxWaiting, heavyAnswerBytes, pieceBytes } = options;
  const waiting: (() => void)[] = [];
  let scheduled = false;

  function runNext(): void {
    scheduled = false;
    const next = waiting.shift();
    if (next === undefined) return;
    if (waiting.length > 0) {
      scheduled = true;
      setImmediate(runNext);
    }
    next();
  }

  /** Queues `turn` last, or with `first`, before everything waiting. */
  function enqueue(turn: () => void, first = false): void {
    if (first) waiting.unshift(turn);
    else waiting.push(turn);
    if (!scheduled) {
      scheduled = true;
      setImmediate(runNext);
    }
  }

  app.addHook(
    "preHandler",
    function heavyLane(
      request: FastifyRequest,
      reply: FastifyReply,
      done: HookHandlerDoneFunction,
    ) {
      // Whatever an earlier calculation declared (a GraphQL field's) is not this request's.
      declaredAnswer.bytes = 0;
      if (!request.heavy && !isHeavy(request.url, request.headers["content-length"], options)) {
        return done();
      }
      if (waiting.length >= maxWaiting) {
        sendError(reply, 503, "Service Unavailable", { "retry-after": "1" });
        return;
      }
      enqueue(done);
    },
  );

  app.addHook(
    "preSerialization",
    function heavyAnswer(
      _request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (error: Error | null, payload?: unknown) => void,
    ) {
      const bytes = declaredAnswer.bytes;
      declaredAnswer.bytes = 0;
      if (bytes < heavyAnswerBytes || waiting.length >= maxWaiting) return done(null, payload);
      // Heavy answers are rare: a closure (and a generator) each is no cost worth avoiding.
      if (!isWalked(payload)) {
        enqueue(() => done(null, payload));
        return;
      }
      let out: JsonBuffer | undefined;
      let pieces: Generator<void, void, undefined> | undefined;
      const piece = () => {
        try {
          // Allocated at the answer's first turn: an answer waiting for its turn holds none.
          out ??= new JsonBuffer(bytes);
          pieces ??= jsonInto(payload, out, pieceBytes);
          if (pieces.next().done === true) {
            const bytes = out.bytes();
            reply.serializer(asIs);
            reply.raw.once("finish", () => release(bytes));
            done(null, bytes);
            return;
          }
        } catch (error) {
          done(error as Error);
          return;
        }
        // The rest of this answer before anything else in the lane: one answer is made at a
        // time, so one buffer is being filled, not one per answer taking turns (7 of ~3 MB
        // under the costly loop). Cheap requests still run between two pieces.
        enqueue(piece, true);
      };
      enqueue(piece);
    },
  );
}

/**
 * The serialiser of an answer already made into JSON bytes. Fastify types a serialiser as
 * making a string; it sends a Buffer as it would the string.
 */
const asIs = ((payload: Buffer) => payload) as unknown as (payload: unknown) => string;

/**
 * Frees an answer's buffer once the socket has taken all of it ("finish"). Left to the
 * collector, buffers outlive their answers by many: one a few MB, promoted while its answer
 * was made and written, waits for a full collection, and their memory stayed resident.
 */
function release(bytes: Buffer): void {
  (bytes.buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
}

/** Arrays and plain objects without `toJSON`: what {@link jsonInto} takes apart. */
function isWalked(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * An array item this long, a string, is written on its own, straight into the buffer;
 * shorter items are stringified a slice at a time (one call for many small values).
 */
const LONG_STRING = 256;

/**
 * Writes `JSON.stringify(value)` into `out`, pausing (a `yield`) each time about
 * `pieceBytes` more bytes are written. Plain objects are walked entry by entry, their
 * strings written straight into the buffer. An array's long strings are written the same
 * way (made into JSON text first, a megabytes answer was as many megabytes of short-lived
 * strings, most of the collector's work); its other items are stringified a slice at a
 * time, so a `toJSON` among them is called with its index within the slice, not within
 * its array.
 *
 * @example
 * const out = new JsonBuffer(64);
 * for (const _ of jsonInto({ items: ["a", 1] }, out, 1));
 * out.bytes().toString(); // '{"items":["a",1]}'
 */
export function* jsonInto(
  value: object,
  out: JsonBuffer,
  pieceBytes: number,
): Generator<void, void, undefined> {
  let paused = out.length;
  if (Array.isArray(value)) {
    out.appendByte(0x5b); // [
    let from = 0; // The first item not yet written.
    let items = 64; // Items per slice, scaled after each to make about pieceBytes.
    for (let i = 0; i <= value.length; i++) {
      const item: unknown = value[i];
      const long = typeof item === "string" && item.length >= LONG_STRING;
      if (i < value.length && !long && i - from < items) continue;
      if (i > from) {
        const text = JSON.stringify(value.slice(from, i));
        if (from > 0) out.appendByte(0x2c); // ,
        // The slice's own brackets dropped: a view of the string, written without a copy.
        out.append(text.slice(1, -1));
        items = Math.max(1, Math.floor(((i - from) * pieceBytes) / Math.max(text.length, 1)));
        from = i;
      }
      if (long) {
        if (i > 0) out.appendByte(0x2c); // ,
        out.appendString(item);
        from = i + 1;
      }
      if (out.length - paused >= pieceBytes) {
        yield;
        paused = out.length;
      }
    }
    out.appendByte(0x5d); // ]
    return;
  }
  out.appendByte(0x7b); // {
  let first = true;
  for (const key of Object.keys(value)) {
    const entry: unknown = (value as Record<string, unknown>)[key];
    const walked = isWalked(entry);
    // Walked, or a string written straight into the buffer; anything else made into JSON text.
    const direct = walked || typeof entry === "string";
    const text = direct ? undefined : jsonText(entry, key);
    // As JSON.stringify does: undefined, functions and symbols leave their key out.
    if (!direct && text === undefined) continue;
    if (!first) out.appendByte(0x2c); // ,
    first = false;
    out.appendString(key);
    out.appendByte(0x3a); // :
    if (walked) yield* jsonInto(entry, out, pieceBytes);
    else if (text === undefined) out.appendString(entry as string);
    else out.append(text);
    if (out.length - paused >= pieceBytes) {
      yield;
      paused = out.length;
    }
  }
  out.appendByte(0x7d); // }
}

/** The JSON text JSON.stringify makes of a value (not a string) at `key` of its holder. */
function jsonText(value: unknown, key: string): string | undefined {
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  if (typeof value === "object" && typeof toJSON === "function") {
    return JSON.stringify(toJSON.call(value, key)) as string | undefined;
  }
  return JSON.stringify(value) as string | undefined;
}

/**
 * A heavy answer's UTF-8 bytes, in one buffer allocated once at the size its operation
 * declared (an upper bound), grown only should the declaration have been short.
 */
export class JsonBuffer {
  #buffer: Buffer;
  #length = 0;
  /** The last string written that needed no escaping. */
  #plain: string | undefined = undefined;

  constructor(declaredBytes: number) {
    this.#buffer = Buffer.allocUnsafeSlow(Math.max(declaredBytes, 1024));
  }

  append(text: string): void {
    // A UTF-16 unit takes at most 3 bytes; only a text near the end is measured exactly.
    if (this.#buffer.length - this.#length < text.length * 3) {
      this.#room(Buffer.byteLength(text));
    }
    this.#length += this.#buffer.write(text, this.#length);
  }

  /** One ASCII character, set in place: no call into C++ for a quote or a comma. */
  appendByte(code: number): void {
    if (this.#length === this.#buffer.length) this.#room(1);
    this.#buffer[this.#length++] = code;
  }

  /**
   * A string as JSON. The last string that needed no escaping is remembered, and the same
   * string again is written as it is: an answer repeating a string (FizzBuzz's words) makes
   * no new string for it.
   */
  appendString(text: string): void {
    if (text === this.#plain) {
      this.appendByte(0x22); // "
      this.append(text);
      this.appendByte(0x22);
      return;
    }
    const json = JSON.stringify(text);
    if (json.length === text.length + 2) this.#plain = text;
    this.append(json);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.#length;
  }

  bytes(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }

  #room(bytes: number): void {
    const needed = this.#length + bytes;
    if (needed <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.#buffer.length * 2));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.#buffer = grown;
  }
}
