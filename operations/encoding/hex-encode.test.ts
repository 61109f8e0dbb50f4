import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { describeEncoder } from "./_encode-suite.js";
import operation from "./hex-encode.js";

const run = (input: Record<string, unknown>) => execute(operation, input);

describe("encoding/hex-encode", () => {
  // RFC 4648 section 10, base16.
  it.each([
    ["", ""],
    ["f", "66"],
    ["fo", "666F"],
    ["foo", "666F6F"],
    ["foobar", "666F6F626172"],
  ])("BASE16(%j) = %j", (text, encoded) => {
    expect(run({ text, uppercase: true })).toEqual({ encoded, textBytes: text.length });
    expect(run({ text })).toEqual({ encoded: encoded.toLowerCase(), textBytes: text.length });
  });

  it("writes each byte as two digits, zeros included", () => {
    expect(run({ text: "AAD/", textEncoding: "base64" })).toEqual({
      encoded: "0000ff",
      textBytes: 3,
    });
  });

  it("normalises hex input to lowercase", () => {
    expect(run({ text: "DEADbeef", textEncoding: "hex" })).toEqual({
      encoded: "deadbeef",
      textBytes: 4,
    });
  });
});

describeEncoder(operation, execute);
