import { describe, expect, it } from "vitest";
import { BOOLEAN_WORDS, parseBoolean } from "./booleans.js";

describe("parseBoolean", () => {
  it.each([
    ["true", true],
    ["1", true],
    ["yes", true],
    ["Y", true],
    ["On", true],
    ["T", true],
    ["TRUE", true],
    ["false", false],
    ["0", false],
    ["NO", false],
    ["n", false],
    ["oFF", false],
    ["F", false],
  ])("reads %j as %s", (raw, expected) => {
    expect(parseBoolean(raw)).toBe(expected);
  });

  it.each([
    "",
    " ",
    "2",
    "maybe",
    "truthy",
    " yes",
    "yes ",
    "nope",
    "10",
    "-1",
    "true".repeat(1000),
  ])("refuses %j", (raw) => {
    expect(parseBoolean(raw)).toBeUndefined();
  });

  it("accepts exactly Pydantic v2's twelve spellings", () => {
    expect([...BOOLEAN_WORDS.keys()].sort()).toEqual(
      ["0", "1", "f", "false", "n", "no", "off", "on", "t", "true", "y", "yes"].sort(),
    );
  });
});
