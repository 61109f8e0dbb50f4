import { describe, expect, it } from "vitest";
import { digitSpan, jsonBytes } from "./cost.js";
import { Exact } from "./decimal.js";

describe("digitSpan", () => {
  it.each([
    [["0"], 1],
    [["123.5", "0.25"], 5],
    [["1e9999", "1e-9999"], 19_999],
    [["-42", "7.125"], 5],
    [["0.001"], 4],
  ])("%j spans %i digits", (values, span) => {
    expect(digitSpan(values.map((v) => new Exact(v)))).toBe(span);
  });
});

describe("jsonBytes", () => {
  it.each([
    ["Fizz", 6],
    ['say "hi"', 12],
    ["😀", 6],
    ["é", 4],
  ])("%j takes %i bytes in JSON", (text, bytes) => {
    expect(jsonBytes(text)).toBe(bytes);
    expect(Buffer.byteLength(JSON.stringify(text))).toBe(bytes);
  });
});
