import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { locTypes, problemsOf } from "../_testing.js";
import { describeIdGenerator } from "./_id-suite.js";
import ulid from "./ulid.js";

interface Answer {
  ulids: string[];
  timestamp: number;
  time: string;
}

const run = (input: Record<string, unknown>) => execute(ulid, input) as Answer;

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** Crockford base32 the slow way: five bits at a time from a string of bits. */
function reference(timestamp: number, random: string): string {
  const bits =
    timestamp.toString(2).padStart(50, "0") + BigInt(`0x${random}`).toString(2).padStart(80, "0");
  let out = "";
  for (let i = 0; i < 130; i += 5)
    out += CROCKFORD.charAt(Number.parseInt(bits.slice(i, i + 5), 2));
  return out;
}

describe("id/ulid", () => {
  it("writes the specification's example timestamp as 01ARYZ6S41", () => {
    expect(run({ timestamp: 1469918176385 }).ulids[0]?.slice(0, 10)).toBe("01ARYZ6S41");
  });

  it.each([
    [0, "00000000000000000000"],
    [1469918176385, "0123456789abcdef0123"],
    [2 ** 48 - 1, "ffffffffffffffffffff"],
  ])("encodes %i and %s as Crockford base32", (timestamp, randomness) => {
    expect(run({ timestamp, randomness }).ulids).toEqual([reference(timestamp, randomness)]);
  });

  it("writes the largest ULID", () => {
    expect(run({ timestamp: 2 ** 48 - 1, randomness: "ff".repeat(10) }).ulids).toEqual([
      "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
    ]);
  });

  it("counts on by one, carrying across characters", () => {
    expect(run({ count: 2, timestamp: 0, randomness: "0000000000000000001f" }).ulids).toEqual([
      "0000000000000000000000000Z",
      "00000000000000000000000010",
    ]);
  });

  it("increases strictly within a call", () => {
    const { ulids } = run({ count: 1000 });
    expect([...ulids].sort()).toEqual(ulids);
    expect(new Set(ulids).size).toBe(1000);
  });

  it("refuses given bits that would overflow within the batch, at randomness", () => {
    const randomness = "ff".repeat(10);
    expect(run({ count: 1, randomness, timestamp: 5 }).ulids[0]?.slice(10)).toBe("Z".repeat(16));
    const problems = problemsOf(ulid, { count: 2, randomness });
    expect(locTypes(problems)).toEqual([[["randomness"], "value_error"]]);
    expect(problems[0]?.msg).toContain("too close to the top of its 80 bits");
  });

  it("writes the current time when no timestamp is given", () => {
    const before = Date.now();
    const answer = run({});
    expect(answer.timestamp).toBeGreaterThanOrEqual(before);
    expect(answer.ulids[0]?.slice(0, 10)).toBe(reference(answer.timestamp, "0").slice(0, 10));
  });
});

describeIdGenerator(ulid, execute, "ulids", /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/, () => 10);
