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

/** What the looks remember: requests answered at the last look, the heap's low point since. */
export interface Looks {
  seen: number;
  base: number;
}

/**
 * Whether a look that finds `count` requests answered so far and `used` bytes of heap
 * collects; updates `looks` (the caller sets `base` after a collection).
 *
 * @example
 * const looks = { seen: 0, base: 0 };
 * isCollecting(looks, 2, 40 * 1024 * 1024); // true: quiet, and the heap grew
 */
export function isCollecting(looks: Looks, count: number, used: number): boolean {
  const busy = count - looks.seen > QUIET_REQUESTS;
  looks.seen = count;
  if (busy || used - looks.base < IDLE_COLLECT_BYTES) {
    looks.base = Math.min(looks.base, used);
    return false;
  }
  return true;
}

/** Young generation committed (bytes) above which an idle process gives it back. */
export const SHRINK_YOUNG_BYTES = 4 * 1024 * 1024;

/**
 * Whether a look shrinks the young generation (a last-resort collection): the process
 * answered nothing since the last look (nobody waits on its pauses), the young generation
 * holds more than {@link SHRINK_YOUNG_BYTES}, and it grew since it was last given back
 * (`grown`: set at start and by every busy look), so a process idle for hours shrinks once.
 *
 * @example
 * isShrinking(true, true, 16 * 1024 * 1024); // true: after start, idle, 16 MB committed
 */
export function isShrinking(grown: boolean, idle: boolean, youngBytes: number): boolean {
  return grown && idle && youngBytes > SHRINK_YOUNG_BYTES;
}

/**
 * Quiet, after traffic, before a look shrinks the young generation. The last-resort
 * collection frees what the optimised request path embeds (the exemplars above keep only
 * what requests hold) and leaves the young generation small: the next burst runs slower
 * until V8 has grown and optimised both again. Short pauses between bursts keep both; a
 * process quiet this long gives them back, once.
 */
export const SHRINK_AFTER_TRAFFIC_MS = 60_000;

/**
 * Whether a look that found nothing answered since the last one may shrink: at once while
 * the process has served no busy look (what it holds is start-up's), and once it has, only
 * after {@link SHRINK_AFTER_TRAFFIC_MS} without an answered request.
 *
 * @example
 * mayShrink(false, 1000); // true: only starting has run
 * mayShrink(true, 1000); // false: a pause between bursts
 */
export function mayShrink(served: boolean, quietMs: number): boolean {
  return !served || quietMs >= SHRINK_AFTER_TRAFFIC_MS;
}

/**
 * Whether a look counts as idle for {@link isShrinking}: nothing answered since the last
 * look or, at the first look after the service starts listening, no more than
 * {@link QUIET_REQUESTS} (its first health probes): the start's garbage and young
 * generation are given back then, not left until a second with no request at all.
 *
 * @example
 * idleForShrinking(true, 1, 0); // true: the first look, one /health answered
 */
export function idleForShrinking(first: boolean, count: number, seen: number): boolean {
  return count === seen || (first && count - seen <= QUIET_REQUESTS);
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
  // From zero: the first quiet look also collects what starting left behind.
  const looks: Looks = { seen: answered.count, base: 0 };
  // Starting grows the young generation to its full semi-spaces, as a busy spell does: the
  // first idle look after either gives it back, so a process idles at its smallest.
  let grown = true;
  let served = false;
  let first = true;
  let answeredAt = performance.now();
  setInterval(() => {
    const count = answered.count;
    const now = performance.now();
    if (count !== looks.seen) answeredAt = now;
    const idle = idleForShrinking(first, count, looks.seen);
    first = false;
    if (count - looks.seen > QUIET_REQUESTS) {
      grown = true;
      served = true;
    }
    const shrink = isShrinking(
      grown,
      idle && mayShrink(served, now - answeredAt),
      youngCommitted(),
    );
    if (!isCollecting(looks, count, getHeapStatistics().used_heap_size) && !shrink) return;
    collect(shrink);
    if (shrink) grown = false;
    looks.base = getHeapStatistics().used_heap_size;
  }, IDLE_CHECK_MS).unref();
}
