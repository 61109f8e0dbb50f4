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
}

export const DEFAULT_HEAVY_LANE: Readonly<HeavyLaneOptions> = Object.freeze({
  heavyUrlBytes: 2048,
  heavyBodyBytes: 8192,
  heavyAnswerBytes: 256 * 1024,
  maxWaiting: 16,
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
  const { maxWaiting, heavyAnswerBytes } = options;
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

  function enqueue(turn: () => void): void {
    waiting.push(turn);
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
      _reply: FastifyReply,
      payload: unknown,
      done: (error: Error | null, payload?: unknown) => void,
    ) {
      const bytes = declaredAnswer.bytes;
      declaredAnswer.bytes = 0;
      if (bytes < heavyAnswerBytes || waiting.length >= maxWaiting) return done(null, payload);
      // Heavy answers are rare: a closure each is no cost worth avoiding.
      enqueue(() => done(null, payload));
    },
  );
}
