import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { locTypes, problemsOf } from "../_testing.js";
import { describeEncoder } from "./_encode-suite.js";
import operation from "./url-encode.js";

const run = (input: Record<string, unknown>) => execute(operation, input);

describe("encoding/url-encode", () => {
  it.each([
    ["component", "a b", "a%20b"],
    ["form", "a b", "a+b"],
    ["component", "!'()*", "%21%27%28%29%2A"],
    ["form", "!'()*", "%21%27%28%29*"],
    ["component", "~", "~"],
    ["form", "~", "%7E"],
    ["component", "100%", "100%25"],
    ["component", "a+b", "a%2Bb"],
    ["component", "😀", "%F0%9F%98%80"],
    ["component", "?#[]@:/", "%3F%23%5B%5D%40%3A%2F"],
  ])("%s mode writes %j as %j", (mode, text, encoded) => {
    expect(run({ text, mode })).toEqual({ encoded, textBytes: Buffer.byteLength(text) });
  });

  it("escapes bytes that are not UTF-8, with upper-case digits", () => {
    expect(run({ text: "ff000a", textEncoding: "hex" })).toEqual({
      encoded: "%FF%00%0A",
      textBytes: 3,
    });
  });

  it("refuses an unknown mode", () => {
    expect(locTypes(problemsOf(operation, { text: "a", mode: "path" }))).toEqual([
      [["mode"], "enum"],
    ]);
  });
});

describeEncoder(operation, execute);
