import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { describeIdGenerator } from "./_id-suite.js";
import uuidV4 from "./uuid-v4.js";

const uuids = (input: Record<string, unknown>) =>
  (execute(uuidV4, input) as { uuids: string[] }).uuids;

describe("id/uuid-v4", () => {
  it("sets the version and variant bits over given bits, and keeps the other 122", () => {
    const randomness = "0123456789abcdef".repeat(2);
    expect(uuids({ randomness })).toEqual(["01234567-89ab-4def-8123-456789abcdef"]);
  });

  it("uses the variant digit 8, 9, a or b, about evenly", () => {
    const counts = new Map<string, number>();
    for (const uuid of uuids({ count: 1000 })) {
      const digit = uuid.charAt(19);
      counts.set(digit, (counts.get(digit) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(["8", "9", "a", "b"]);
    for (const count of counts.values()) expect(count).toBeGreaterThan(150);
  });
});

describeIdGenerator(
  uuidV4,
  execute,
  "uuids",
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  (count) => 16 * count,
);
