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
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from "fastify";
import { declaredAnswer } from "../core/budget.js";
import { sendError } from "./errors.js";

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
      if (!isHeavy(request.url, request.headers["content-length"], options)) return done();
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
      const pieces = jsonPieces(payload, pieceBytes);
      let out: JsonBuffer | undefined;
      const piece = () => {
        // Allocated at the answer's first turn: an answer waiting for its turn holds none.
        out ??= new JsonBuffer(bytes);
        try {
          let made = 0;
          while (made < pieceBytes) {
            const next = pieces.next();
            if (next.done === true) {
              const bytes = out.bytes();
              reply.serializer(asIs);
              reply.raw.once("finish", () => release(bytes));
              done(null, bytes);
              return;
            }
            out.append(next.value);
            made += next.value.length;
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

/** Arrays and plain objects without `toJSON`: what {@link jsonPieces} takes apart. */
function isWalked(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * `JSON.stringify(value)` in pieces: arrays and plain objects are walked, and a long array
 * is stringified a slice at a time, each slice about `pieceBytes` characters. Joined, the
 * pieces are JSON.stringify's text for JSON data (what operations answer); a `toJSON` below
 * the top is called with its index within a slice, not within its array.
 *
 * @example
 * [...jsonPieces({ items: ["a", "b"] }, 1)].join(""); // '{"items":["a","b"]}'
 */
export function* jsonPieces(value: object, pieceBytes: number): Generator<string, void, undefined> {
  if (!Array.isArray(value)) {
    yield "{";
    let first = true;
    for (const key of Object.keys(value)) {
      const entry: unknown = (value as Record<string, unknown>)[key];
      const head = `${first ? "" : ","}${JSON.stringify(key)}:`;
      if (isWalked(entry)) {
        yield head;
        yield* jsonPieces(entry, pieceBytes);
      } else {
        const text = JSON.stringify(entry) as string | undefined;
        // As JSON.stringify does: undefined, functions and symbols leave their key out.
        if (text === undefined) continue;
        yield head + text;
      }
      first = false;
    }
    yield "}";
    return;
  }
  yield "[";
  let items = 64;
  for (let start = 0; start < value.length; ) {
    const end = Math.min(value.length, start + items);
    const text = JSON.stringify(value.slice(start, end));
    if (start > 0) yield ",";
    // The slice's own brackets dropped: a view of the string, written without a copy (joined
    // to the comma, it was flattened into a new string first).
    yield text.slice(1, -1);
    items = Math.max(1, Math.floor(((end - start) * pieceBytes) / Math.max(text.length, 1)));
    start = end;
  }
  yield "]";
}

/**
 * A heavy answer's UTF-8 bytes, in one buffer allocated once at the size its operation
 * declared (an upper bound), grown only should the declaration have been short.
 */
class JsonBuffer {
  #buffer: Buffer;
  #length = 0;

  constructor(declaredBytes: number) {
    this.#buffer = Buffer.allocUnsafeSlow(Math.max(declaredBytes, 1024));
  }

  append(text: string): void {
    // A UTF-16 unit takes at most 3 bytes; only a piece near the end is measured exactly.
    if (this.#buffer.length - this.#length < text.length * 3) {
      const needed = this.#length + Buffer.byteLength(text);
      if (needed > this.#buffer.length) {
        const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.#buffer.length * 2));
        this.#buffer.copy(grown, 0, 0, this.#length);
        this.#buffer = grown;
      }
    }
    this.#length += this.#buffer.write(text, this.#length);
  }

  bytes(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }
}
