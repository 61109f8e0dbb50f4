import { describe, expect, it } from "vitest";
import { jsonDepthOver } from "./json-body.js";

describe("jsonDepthOver", () => {
  it.each([
    ["a scalar", "1", 0, false],
    ["an object at depth 1", '{"a":1}', 1, false],
    ["two levels against 1", '{"a":[1]}', 1, true],
    ["brackets inside strings do not count", '{"a":"[[[[{{{{"}', 1, false],
    ["an escaped quote keeps the string open", '{"a":"\\"[[["}', 1, false],
    ["an escaped backslash closes it", '{"a":"\\\\",  "b":[[1]]}', 2, true],
    ["siblings are not nesting", "[[1],[2],[3]]", 2, false],
    ["500,000 levels", "[".repeat(500_000) + "]".repeat(500_000), 64, true],
  ])("%s", (_name, text, max, over) => {
    expect(jsonDepthOver(text, max)).toBe(over);
  });
});
