/**
 * Where the pipeline keeps prepared documents (parsed, validated, compiled), bounded by an
 * estimate of the heap they hold rather than by their number: a compiled document holds
 * from a few KiB to several MiB, depending on the fields it selects, so a bound by count
 * alone let a few hundred distinct large documents fill the heap.
 */

import { hash } from "node:crypto";

/**
 * Heap the prepared documents may hold in all, as estimated by {@link preparedBytes}: the
 * most common documents of a working set stay compiled, and the process's heap (128 MB
 * under `npm start`) keeps room for the requests in flight.
 */
export const PREPARED_CACHE_BYTES = 16 * 1024 * 1024;

/** Heap kept per token of the query text: the syntax tree with its tokens and locations. */
export const BYTES_PER_TOKEN = 320;
/**
 * Heap kept per field selected (at every level): graphql-jit's generated code for it, once
 * V8 has compiled and run it.
 */
export const BYTES_PER_FIELD = 8 * 1024;
/** Heap kept per document whatever its size: the compiled query, its records and keys. */
export const BYTES_PER_DOCUMENT = 16 * 1024;

/**
 * An estimate of the heap a prepared document holds, from the tokens of its text and the
 * fields its operation selects (fragments expanded). Calibrated by measuring the heap kept
 * by prepared documents of several shapes; errs on the high side.
 *
 * @example
 * preparedBytes(1702, 300); // 100 aliased `math { sum { decimal } }`: ~2.9 MiB
 */
export function preparedBytes(tokens: number, selectedFields: number): number {
  return BYTES_PER_DOCUMENT + tokens * BYTES_PER_TOKEN + selectedFields * BYTES_PER_FIELD;
}

/** Query texts remembered as seen once (by digest: ~100 bytes each, whatever the text). */
export const SEEN_ONCE_TEXTS = 4096;

/**
 * Admission to the cache on a text's second sight. A document sent once (generated
 * queries, a client probing) is prepared for its request and then dropped, so one-off
 * documents never fill the cache nor displace the ones clients repeat, and their heap is
 * garbage as soon as they are answered.
 *
 * @example
 * const door = new SecondSight(2);
 * door.admits("{ a }"); // false: first sight
 * door.admits("{ a }"); // true
 */
export class SecondSight {
  readonly #seen = new Set<string>();

  constructor(readonly capacity: number = SEEN_ONCE_TEXTS) {}

  /** Whether `text` was seen before (it is then forgotten here); else remembers it. */
  admits(text: string): boolean {
    const digest = hash("sha1", text, "base64");
    if (this.#seen.delete(digest)) return true;
    if (this.#seen.size >= this.capacity) {
      const oldest = this.#seen.values().next();
      if (oldest.done !== true) this.#seen.delete(oldest.value);
    }
    this.#seen.add(digest);
    return false;
  }
}

interface Slot<V> {
  value: V;
  bytes: number;
  /** Read since it last came up for eviction: it gets a second chance. */
  recent: boolean;
}

/**
 * A map from string keys to values, each charged an estimate of its bytes, that evicts the
 * least recently used entries (approximated by a second chance, as a CLOCK does: a read
 * only marks its entry) once the charges pass `maxBytes`. A read allocates nothing.
 *
 * @example
 * const cache = new ByteBoundedCache<Map<string, number>>(1024);
 * cache.charge("a", 600, () => new Map())?.set("x", 1);
 * cache.charge("b", 600, () => new Map()); // "a" is evicted
 */
export class ByteBoundedCache<V> {
  readonly #slots = new Map<string, Slot<V>>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** The bytes charged to the entries held. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#slots.size;
  }

  /** The value kept for `key`, marked as recently used. */
  get(key: string): V | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    slot.recent = true;
    return slot.value;
  }

  /** Whether `key` is kept, without marking it. */
  has(key: string): boolean {
    return this.#slots.has(key);
  }

  /**
   * Charges `bytes` more to `key`'s entry, made by `create` when there is none, and evicts
   * other entries, least recently used first, until the charges fit `maxBytes`. Returns the
   * entry's value, or undefined when it alone would not fit: then it is not kept (nor any
   * value it had).
   */
  charge(key: string, bytes: number, create: () => V): V | undefined {
    let slot = this.#slots.get(key);
    const total = (slot?.bytes ?? 0) + bytes;
    if (total > this.maxBytes) {
      if (slot) this.#delete(key, slot);
      return undefined;
    }
    if (slot) {
      slot.bytes = total;
      slot.recent = true;
    } else {
      slot = { value: create(), bytes, recent: false };
      this.#slots.set(key, slot);
    }
    this.#bytes += bytes;
    this.#evictFor(key);
    return slot.value;
  }

  #delete(key: string, slot: Slot<V>): void {
    this.#slots.delete(key);
    this.#bytes -= slot.bytes;
  }

  /**
   * Evicts from the oldest end until within budget, sparing `kept`: an entry read since its
   * last turn moves to the newest end, unmarked, instead. Each entry moves at most once per
   * pass, so this ends.
   */
  #evictFor(kept: string): void {
    while (this.#bytes > this.maxBytes) {
      for (const [key, slot] of this.#slots) {
        if (key === kept) continue;
        this.#slots.delete(key);
        if (slot.recent) {
          slot.recent = false;
          this.#slots.set(key, slot);
        } else {
          this.#bytes -= slot.bytes;
        }
        break;
      }
    }
  }
}
