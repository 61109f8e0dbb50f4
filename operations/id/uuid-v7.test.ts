import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { locTypes, problemsOf } from "../_testing.js";
import { describeIdGenerator } from "./_id-suite.js";
import uuidV7 from "./uuid-v7.js";

interface Answer {
  uuids: string[];
  timestamp: number;
  time: string;
}

const run = (input: Record<string, unknown>) => execute(uuidV7, input) as Answer;

describe("id/uuid-v7", () => {
  it("writes RFC 9562's appendix A.6 example from its timestamp and bits", () => {
    // 017F22E2-79B0-7CC3-98C4-DC0C0C07398F: timestamp 0x017F22E279B0, rand_a 0xCC3,
    // rand_b 0x18C4DC0C0C07398F.
    const answer = run({ timestamp: 0x017f22e279b0, randomness: "0cc318c4dc0c0c07398f" });
    expect(answer).toEqual({
      uuids: ["017f22e2-79b0-7cc3-98c4-dc0c0c07398f"],
      timestamp: 1645557742000,
      time: "2022-02-22T19:22:22.000Z",
    });
  });

  it("counts on through rand_b into rand_a", () => {
    const { uuids } = run({
      count: 2,
      timestamp: 0,
      randomness: "0001" + "3fffffffffffffff",
    });
    expect(uuids).toEqual([
      "00000000-0000-7001-bfff-ffffffffffff",
      "00000000-0000-7002-8000-000000000000",
    ]);
  });

  it("increases strictly within a call, as text", () => {
    const { uuids } = run({ count: 1000 });
    expect([...uuids].sort()).toEqual(uuids);
    expect(new Set(uuids).size).toBe(1000);
  });

  it("writes the current time when no timestamp is given", () => {
    const before = Date.now();
    const answer = run({});
    const after = Date.now();
    expect(answer.timestamp).toBeGreaterThanOrEqual(before);
    expect(answer.timestamp).toBeLessThanOrEqual(after);
    expect(Number.parseInt(answer.uuids[0]?.replace("-", "").slice(0, 12) ?? "", 16)).toBe(
      answer.timestamp,
    );
    expect(answer.time).toBe(new Date(answer.timestamp).toISOString());
  });

  it("writes the largest timestamp", () => {
    expect(run({ timestamp: 2 ** 48 - 1, randomness: "00".repeat(10) })).toEqual({
      uuids: ["ffffffff-ffff-7000-8000-000000000000"],
      timestamp: 2 ** 48 - 1,
      time: "+010889-08-02T05:31:50.655Z",
    });
  });

  it("refuses given bits that would overflow within the batch, at randomness", () => {
    const randomness = "0fff3fffffffffffffff";
    expect(run({ count: 1, randomness, timestamp: 0 }).uuids).toEqual([
      "00000000-0000-7fff-bfff-ffffffffffff",
    ]);
    const problems = problemsOf(uuidV7, { count: 2, randomness });
    expect(locTypes(problems)).toEqual([[["randomness"], "value_error"]]);
    expect(problems[0]?.msg).toContain("too close to the top of its 74 bits");
  });

  it.each([
    [-1, "greater_than_equal"],
    [2 ** 48, "less_than_equal"],
  ])("refuses timestamp %s", (timestamp, type) => {
    expect(locTypes(problemsOf(uuidV7, { timestamp }))).toEqual([[["timestamp"], type]]);
  });
});

describeIdGenerator(
  uuidV7,
  execute,
  "uuids",
  /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  () => 10,
);
