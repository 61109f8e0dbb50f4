import { describe, expect, it } from "vitest";
import { createKeyChecker, createSecretMatcher, keyIdOf } from "./auth.js";

describe("createSecretMatcher (the metrics token)", () => {
  const matches = createSecretMatcher("tok,en");
  it.each([
    ["the token", "tok,en", true],
    ["a prefix of it", "tok", false],
    ["it with a trailing NUL", "tok,en\0", false],
    ["it with a trailing space", "tok,en ", false],
    ["nothing", "", false],
    ["a string longer than any slot", "x".repeat(10_000), false],
  ])("%s", (_what, presented, expected) => {
    expect(matches(presented)).toBe(expected);
  });
});

describe("createKeyChecker", () => {
  const check = createKeyChecker(["k1", "k2"]);
  it.each([
    ["a configured key", "k2", { ok: true, keyId: keyIdOf("k2") }],
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
    expect(check(presented)).toEqual(expected);
  });

  it("compares keys longer than the minimum width over their whole length", () => {
    const long = `${"a".repeat(299)}b`;
    const checkLong = createKeyChecker(["short", long]);
    expect(checkLong(long)).toEqual({ ok: true, keyId: keyIdOf(long) });
    expect(checkLong(`${"a".repeat(299)}c`)).toEqual({ ok: false, reason: "Invalid API key" });
    expect(checkLong("short")).toEqual({ ok: true, keyId: keyIdOf("short") });
    expect(checkLong("shorT")).toEqual({ ok: false, reason: "Invalid API key" });
  });
});
