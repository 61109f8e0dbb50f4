import { describe, expect, it } from "vitest";
import { CHAR_WORK, digitSpan, ITEM_WORK, jsonBytes, readingCost } from "./cost.js";
import { Exact, WORD_DIGITS } from "./decimal.js";
import { Decimals } from "./decimals.js";

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

describe("readingCost", () => {
  const three = Decimals.read(["1", "2", "3"], () => undefined);
  it.each([
    ["a string: its UTF-16 units", "abc", 3 * CHAR_WORK],
    ["a number or a boolean: nothing to read", 7, 0],
    ["a list: each item, and what it holds", ["ab", "c"], 2 * ITEM_WORK + 3 * CHAR_WORK],
    ["an exact decimal: its words", new Exact("15"), 1 * WORD_DIGITS * CHAR_WORK],
    ["a compact list: its items", three, 3 * ITEM_WORK],
    ["an object: its values", { text: "abc", numbers: ["1", "2"] }, 2 * ITEM_WORK + 5 * CHAR_WORK],
    // Raw input from a client: a field named length is a field, not a list's size.
    ["an object with a length field", { length: 0, text: "abcd" }, 4 * CHAR_WORK],
  ])("%s", (_what, input, work) => {
    expect(readingCost(input)).toEqual({ work, bytes: 0 });
  });
});
