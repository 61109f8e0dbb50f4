import { describe, expect, it } from "vitest";
import { createSecretMatcher } from "./auth.js";

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
