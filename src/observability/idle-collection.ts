/**
 * A full collection when the process falls quiet after work. V8 collects its old space when
 * it nears a limit set after the last full collection, or from its memory reducer, which
 * waits for an allocation rate that a scraped /metrics alone exceeds: after a burst the
 * heap kept its garbage (tens of MB) and its pages indefinitely. Here, once a second, a
 * process that answered few requests in that second and whose heap grew by
 * {@link IDLE_COLLECT_BYTES} since the last look's low point collects it all, once.
 */
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";
import { fullCollection } from "../runtime/internals.js";

/** Heap grown since the last full collection (bytes) that a quiet process collects. */
export const IDLE_COLLECT_BYTES = 8 * 1024 * 1024;
/** How often the process looks whether it is quiet, in milliseconds. */
export const IDLE_CHECK_MS = 1000;
/** Requests answered in one look's interval, at most, for the process to count as quiet. */
export const QUIET_REQUESTS = 5;

/** Requests answered so far in this process (every app's request log adds to it). */
export const answered = { count: 0 };

/** The most a kept request may hold: its URL and its declared body, in bytes. */
export const MAX_KEPT_REQUEST_BYTES = 8 * 1024;

/**
 * The last small request answered in each fastify context (by its reply, which holds the
 * request; both hold Node's request, response and socket). A full collection while nothing
 * is in flight would free the hidden classes ("maps") of every per-request object, and V8
 * throws away the optimised code that embeds them: the whole request path, which then runs
 * unoptimised until V8 optimises it again (slowly, without Maglev) at the next burst. An
 * exemplar of each shape, kept alive, keeps its map and that code. At most one small
 * request per context (a handful) is held, and none of an app a reload has replaced (weak).
 */
const exemplars = new WeakMap<object, object>();

/**
 * Keeps `reply` as the exemplar of `context` (its request's class: one per fastify
 * context) when its request is small: the URL (`urlLength`) and the body its `headers`
 * declare together at most {@link MAX_KEPT_REQUEST_BYTES}, none without Content-Length.
 * Replaces the context's previous one, allocating nothing.
 */
export function keepShapes(
  context: object,
  reply: object,
  urlLength: number,
  headers: { "content-length"?: string; "transfer-encoding"?: string },
): void {
  const declared = headers["content-length"];
  const body =
    declared !== undefined
      ? Number(declared)
      : headers["transfer-encoding"] === undefined
        ? 0
        : Number.POSITIVE_INFINITY;
  // Written so that a Content-Length that is not a number keeps nothing.
  if (!(urlLength + body <= MAX_KEPT_REQUEST_BYTES)) return;
  exemplars.set(context, reply);
}

/** The reply kept for `context` by {@link keepShapes}, if any (tests). */
export function keptReply(context: object): object | undefined {
  return exemplars.get(context);
}

let started = false;

/** Whether the looks have begun in this process (see {@link startIdleCollection}). */
export function idleCollectionStarted(): boolean {
  return started;
}

/** Young generation committed (bytes) above which an idle process gives it back. */
export const SHRINK_YOUNG_BYTES = 4 * 1024 * 1024;

/**
 * Quiet, after traffic, before a look shrinks the young generation. The last-resort
 * collection frees what the optimised request path embeds (the exemplars above keep only
 * what requests hold) and leaves the young generation small: the next burst runs slower
 * until V8 has grown and optimised both again. Short pauses between bursts keep both; a
 * process quiet this long gives them back, once.
 */
export const SHRINK_AFTER_TRAFFIC_MS = 60_000;

/** What the looks remember from one to the next. */
export interface Looks {
  /** Requests answered so far, at the last look. */
  seen: number;
  /** The heap's lowest point (bytes) since the last collection: growth is counted from it. */
  base: number;
  /** Whether the young generation may have grown since it was last given back. */
  grown: boolean;
  /** Whether any look has found the process busy (more than start-up has run). */
  served: boolean;
  /** Whether the next look is the first since the service started listening. */
  first: boolean;
  /** When a look last found requests answered (ms, on `performance.now()`'s clock). */
  answeredAt: number;
}

/**
 * The looks of a process that has just started listening with `count` requests answered,
 * at `now`. Starting grows the young generation to its full semi-spaces, as a busy spell
 * does, and leaves garbage: the base is zero, so the first quiet look collects it all.
 */
export function startingLooks(count: number, now: number): Looks {
  return { seen: count, base: 0, grown: true, served: false, first: true, answeredAt: now };
}

/** What a look does: nothing, a full collection, or one that also shrinks the young generation. */
export type LookVerdict = "none" | "collect" | "shrink";

/**
 * One look, given the requests answered so far (`count`), the time (`now`, ms), the heap
 * used and the young generation committed (bytes); updates `looks` (the caller sets
 * `base` after a collection).
 *
 * - Busy (more than {@link QUIET_REQUESTS} answered since the last look): nothing.
 * - Shrinks when the young generation holds more than {@link SHRINK_YOUNG_BYTES}, grew
 *   since it was last given back, and the process is idle: nothing answered since the
 *   last look (nobody waits on the pause) or, at the first look after listen, no more
 *   than its first health probes. After traffic, only once {@link SHRINK_AFTER_TRAFFIC_MS}
 *   have passed without an answer; a process idle for hours shrinks once.
 * - Otherwise collects when quiet and the heap grew {@link IDLE_COLLECT_BYTES} since its
 *   low point.
 *
 * @example
 * const looks = startingLooks(0, 0);
 * look(looks, 1, 1000, 40 * MB, 16 * MB); // "shrink": the first look, one /health answered
 */
export function look(
  looks: Looks,
  count: number,
  now: number,
  used: number,
  young: number,
): LookVerdict {
  const answeredSince = count - looks.seen;
  const busy = answeredSince > QUIET_REQUESTS;
  const idle = answeredSince === 0 || (looks.first && !busy);
  looks.seen = count;
  looks.first = false;
  if (answeredSince > 0) looks.answeredAt = now;
  if (busy) {
    looks.grown = true;
    looks.served = true;
  }
  const quietLongEnough = !looks.served || now - looks.answeredAt >= SHRINK_AFTER_TRAFFIC_MS;
  if (looks.grown && idle && quietLongEnough && young > SHRINK_YOUNG_BYTES) {
    looks.grown = false;
    return "shrink";
  }
  if (busy || used - looks.base < IDLE_COLLECT_BYTES) {
    looks.base = Math.min(looks.base, used);
    return "none";
  }
  return "collect";
}

function youngCommitted(): number {
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name === "new_space") return space.space_size;
  }
  return 0;
}

/** Starts the looks, once per process, once it listens (server.ts); the timer never keeps the process alive. */
export function startIdleCollection(): void {
  if (started) return;
  started = true;
  const collect = fullCollection();
  const looks = startingLooks(answered.count, performance.now());
  setInterval(() => {
    const verdict = look(
      looks,
      answered.count,
      performance.now(),
      getHeapStatistics().used_heap_size,
      youngCommitted(),
    );
    if (verdict === "none") return;
    collect(verdict === "shrink");
    looks.base = getHeapStatistics().used_heap_size;
  }, IDLE_CHECK_MS).unref();
}
