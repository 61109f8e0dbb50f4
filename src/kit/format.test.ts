import { describe, expect, it } from "vitest";
import { groupDigits } from "./format.js";

describe("groupDigits writes an integer as toLocaleString('en-US') does", () => {
  it.each([
    0, 7, 42, 999, 1000, 4096, 10_000, 65_536, 100_000, 1_000_000, 123_456_789, -1, -1000, -98_765,
  ])("%d", (value) => {
    expect(groupDigits(value)).toBe(value.toLocaleString("en-US"));
  });
});
