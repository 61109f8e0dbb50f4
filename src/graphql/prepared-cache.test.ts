import { describe, expect, it } from "vitest";
import {
  BYTES_PER_DOCUMENT,
  BYTES_PER_FIELD,
  BYTES_PER_TOKEN,
  ByteBoundedCache,
  PREPARED_CACHE_BYTES,
  preparedBytes,
} from "./prepared-cache.js";

const made = () => ({ made: true });

describe("ByteBoundedCache", () => {
  it("keeps entries while their bytes fit, and counts them", () => {
    const cache = new ByteBoundedCache<object>(1000);
    cache.charge("a", 400, made);
    cache.charge("b", 600, made);
    expect([cache.size, cache.bytes]).toEqual([2, 1000]);
    expect(cache.get("a")).toEqual({ made: true });
    expect(cache.has("b")).toBe(true);
  });

  it("evicts the oldest entries until the bytes fit, whatever their number", () => {
    const cache = new ByteBoundedCache<object>(1000);
    for (const key of ["a", "b", "c", "d"]) cache.charge(key, 250, made);
    cache.charge("e", 600, made);
    expect(["a", "b", "c", "d", "e"].filter((key) => cache.has(key))).toEqual(["d", "e"]);
    expect(cache.bytes).toBe(850);
  });

  it("spares an entry read since it was kept (a second chance), evicting the next one", () => {
    const cache = new ByteBoundedCache<object>(1000);
    for (const key of ["a", "b", "c", "d"]) cache.charge(key, 250, made);
    cache.get("a");
    cache.charge("e", 250, made);
    expect(["a", "b", "c", "d", "e"].filter((key) => cache.has(key))).toEqual(["a", "c", "d", "e"]);
    // Its chance used, "a" is the oldest unread entry again once the others are read.
    for (const key of ["c", "d", "e"]) cache.get(key);
    cache.charge("f", 250, made);
    expect(cache.has("a")).toBe(false);
  });

  it("has() does not count as a read", () => {
    const cache = new ByteBoundedCache<object>(500);
    cache.charge("a", 250, made);
    cache.charge("b", 250, made);
    cache.has("a");
    cache.charge("c", 250, made);
    expect(cache.has("a")).toBe(false);
  });

  it("charges more to an entry already kept, keeping its value, and evicts others for it", () => {
    const cache = new ByteBoundedCache<Map<string, number>>(1000);
    cache.charge("a", 300, () => new Map())?.set("x", 1);
    cache.charge("b", 300, () => new Map());
    const again = cache.charge("a", 500, () => new Map());
    expect(again?.get("x")).toBe(1);
    expect(cache.has("b")).toBe(false);
    expect(cache.bytes).toBe(800);
  });

  it("keeps nothing of an entry that alone would not fit", () => {
    const cache = new ByteBoundedCache<object>(1000);
    cache.charge("a", 600, made);
    expect(cache.charge("big", 1001, made)).toBeUndefined();
    expect(cache.has("big")).toBe(false);
    expect(cache.has("a")).toBe(true);
    // An entry charged past the whole budget is dropped, with what it was charged.
    expect(cache.charge("a", 500, made)).toBeUndefined();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });
});

describe("preparedBytes", () => {
  it("adds a document's share, its tokens' and its fields'", () => {
    expect(preparedBytes(10, 3)).toBe(
      BYTES_PER_DOCUMENT + 10 * BYTES_PER_TOKEN + 3 * BYTES_PER_FIELD,
    );
  });

  it("keeps the largest documents the limits allow within the budget, a few at a time", () => {
    // 100 operation fields each selecting every field of the widest result (~1,300 fields).
    const widest = preparedBytes(2000, 1300);
    expect(widest).toBeLessThan(PREPARED_CACHE_BYTES);
    // 100 aliased `math { sum { decimal } }`: five of them at most.
    expect(Math.floor(PREPARED_CACHE_BYTES / preparedBytes(1702, 300))).toBe(5);
  });
});
