import { describe, expect, it } from "vitest";
import { jsonShapeProblem } from "./json-body.js";

describe("jsonShapeProblem", () => {
  it.each([
    ["a scalar", "1", 0, 10, undefined],
    ["an object at depth 1", '{"a":1}', 1, 10, undefined],
    ["two levels against 1", '{"a":[1]}', 1, 10, "deep"],
    ["brackets inside strings do not count", '{"a":"[[[[{{{{"}', 1, 10, undefined],
    ["an escaped quote keeps the string open", '{"a":"\\"[[["}', 1, 10, undefined],
    ["an escaped backslash closes it", '{"a":"\\\\",  "b":[[1]]}', 2, 10, "deep"],
    ["siblings are not nesting", "[[1],[2],[3]]", 2, 10, undefined],
    ["500,000 levels", "[".repeat(500_000) + "]".repeat(500_000), 64, 1_000_000, "deep"],
    ["a list of 3 within 4 values", "[1,2,3]", 64, 4, undefined],
    ["a list of 3 past 2 values", "[1,2,3]", 64, 2, "many"],
    ["commas inside strings do not count", '["a,b,c,d,e"]', 64, 1, undefined],
    ["object members count", '{"a":1,"b":2,"c":3}', 64, 2, "many"],
    ["an object in a list counts as the item and as an object", "[{},{}]", 64, 3, "many"],
    ["330,000 empty objects", `[${"{},".repeat(330_000)}{}]`, 64, 20_000, "many"],
  ])("%s", (_name, text, maxDepth, maxValues, problem) => {
    expect(jsonShapeProblem(text, maxDepth, maxValues)).toBe(problem);
  });
});
