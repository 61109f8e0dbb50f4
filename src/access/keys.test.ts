import { hash } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { keyIdOf, secretDigest } from "../http/auth.js";
import { createKeyChecker, DIGEST_MEMO_KEYS, type KeySource, staticKeys } from "./keys.js";
import { staticPrincipal } from "./principal.js";

/** Every value hashed through auth.ts, in order: the memo's tests read what was hashed. */
const hashed = vi.hoisted(() => [] as string[]);
vi.mock("../http/auth.js", async (importOriginal) => {
  const auth = await importOriginal<typeof import("../http/auth.js")>();
  return {
    ...auth,
    secretDigest: (secret: string) => {
      hashed.push(secret);
      return auth.secretDigest(secret);
    },
  };
});

/** What a check answers, with the principal reduced to its id. */
function outcome(result: ReturnType<ReturnType<typeof createKeyChecker>>) {
  return result.ok ? { ok: true, id: result.principal.id } : result;
}

describe("createKeyChecker over the static keys", () => {
  const check = createKeyChecker([staticKeys(["k1", "k2"])]);
  it.each([
    ["a configured key", "k2", { ok: true, id: keyIdOf("k2") }],
    [
      "no header",
      undefined,
      { ok: false, reason: "Missing API key: send it in the X-API-Key header" },
    ],
    ["two headers, joined", "k1, k2", { ok: false, reason: "Send exactly one X-API-Key header" }],
    ["an empty key", "", { ok: false, reason: "Empty API key" }],
    ["an unknown key", "k3", { ok: false, reason: "Invalid API key" }],
    ["a prefix of a key", "k", { ok: false, reason: "Invalid API key" }],
    ["a key with a trailing NUL", "k1\0", { ok: false, reason: "Invalid API key" }],
    ["a key longer than every slot", "k".repeat(10_000), { ok: false, reason: "Invalid API key" }],
  ])("%s", (_what, presented, expected) => {
    expect(outcome(check(presented))).toEqual(expected);
  });

  it("compares keys longer than the minimum width over their whole length", () => {
    const long = `${"a".repeat(299)}b`;
    const checkLong = createKeyChecker([staticKeys(["short", long])]);
    expect(outcome(checkLong(long))).toEqual({ ok: true, id: keyIdOf(long) });
    expect(outcome(checkLong(`${"a".repeat(299)}c`))).toEqual({
      ok: false,
      reason: "Invalid API key",
    });
    expect(outcome(checkLong("short"))).toEqual({ ok: true, id: keyIdOf("short") });
    expect(outcome(checkLong("shorT"))).toEqual({ ok: false, reason: "Invalid API key" });
  });

  it("looks a key up by its digest alone: one lookup however many keys are held", () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `key-${i}`);
    const source = staticKeys(many);
    expect(source.find("not the key", secretDigest("key-9999"))?.id).toBe(keyIdOf("key-9999"));
    expect(source.find("key-9999", secretDigest("key-10000"))).toBeUndefined();
  });

  it("answers the same object for the same key: a check allocates nothing", () => {
    expect(check("k1")).toBe(check("k1"));
  });

  it("a static key has every scope, the server's plan, no name and no prefix", () => {
    const result = check("k1");
    expect(result.ok && result.principal).toMatchObject({
      id: keyIdOf("k1"),
      scopes: ["*"],
      plan: null,
      name: null,
      prefix: null,
      managed: false,
    });
  });
});

describe("createKeyChecker over several sources", () => {
  it("asks every source, whichever knows the key, and takes the first answer", () => {
    const asked: string[] = [];
    const source = (name: string, known: string): KeySource => ({
      find(presented, digest) {
        asked.push(name);
        expect(digest).toBe(secretDigest(presented));
        return presented === known ? staticPrincipal(name) : undefined;
      },
    });
    const check = createKeyChecker([source("a", "x"), source("b", "y"), source("c", "x")]);
    expect(outcome(check("x"))).toEqual({ ok: true, id: "a" });
    expect(outcome(check("y"))).toEqual({ ok: true, id: "b" });
    expect(outcome(check("z"))).toEqual({ ok: false, reason: "Invalid API key" });
    expect(asked).toEqual(["a", "b", "c", "a", "b", "c", "a", "b", "c"]);
  });
});

describe("createKeyChecker's memo of accepted keys' digests", () => {
  /** A source knowing `keys` until they are taken out of `live`. */
  function revocable(keys: string[]) {
    const live = new Set(keys);
    const source: KeySource = {
      find(presented, digest) {
        expect(digest).toBe(hash("sha256", presented, "hex"));
        return live.has(presented) ? staticPrincipal(presented) : undefined;
      },
    };
    return { live, source };
  }

  it("hashes an accepted key once, and a refused value every time", () => {
    const { source } = revocable(["good"]);
    const check = createKeyChecker([source]);
    hashed.length = 0;
    for (let i = 0; i < 3; i++) {
      expect(check("good").ok).toBe(true);
      expect(check("bad").ok).toBe(false);
    }
    expect(hashed.filter((v) => v === "good")).toHaveLength(1);
    expect(hashed.filter((v) => v === "bad")).toHaveLength(3);
  });

  it("refuses a remembered key once no source knows it, and forgets it", () => {
    const { live, source } = revocable(["rotated"]);
    const check = createKeyChecker([source]);
    expect(check("rotated").ok).toBe(true);
    live.delete("rotated");
    expect(outcome(check("rotated"))).toEqual({ ok: false, reason: "Invalid API key" });
    live.add("rotated");
    hashed.length = 0;
    expect(check("rotated").ok).toBe(true);
    expect(hashed).toEqual(["rotated"]);
  });

  it(`holds at most ${DIGEST_MEMO_KEYS} keys, starting again empty past that`, () => {
    const keys = Array.from({ length: DIGEST_MEMO_KEYS + 1 }, (_, i) => `key-${i}`);
    const check = createKeyChecker([revocable(keys).source]);
    for (const key of keys) check(key);
    hashed.length = 0;
    check("key-0");
    check(`key-${DIGEST_MEMO_KEYS}`);
    expect(hashed).toEqual(["key-0"]);
  });
});
