import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { describeEncoder } from "./_encode-suite.js";
import operation from "./base64url-encode.js";

const run = (input: Record<string, unknown>) => execute(operation, input);

describe("encoding/base64url-encode", () => {
  // RFC 4648 section 10, in the URL-safe alphabet (the same: no 62nd or 63rd character).
  it.each([
    ["", ""],
    ["f", "Zg"],
    ["fo", "Zm8"],
    ["foo", "Zm9v"],
    ["foob", "Zm9vYg"],
    ["fooba", "Zm9vYmE"],
    ["foobar", "Zm9vYmFy"],
  ])("BASE64URL(%j) = %j unpadded", (text, encoded) => {
    expect(run({ text })).toEqual({ encoded, textBytes: text.length });
    expect(run({ text, padding: true })).toEqual({
      encoded: encoded.padEnd(4 * Math.ceil(encoded.length / 4), "="),
      textBytes: text.length,
    });
  });

  it("uses - and _ where base64 has + and /", () => {
    expect(run({ text: "fbff", textEncoding: "hex" })).toEqual({ encoded: "-_8", textBytes: 2 });
    expect(run({ text: "+/8=", textEncoding: "base64" })).toEqual({ encoded: "-_8", textBytes: 2 });
  });

  it("writes what Buffer writes, for any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const buffer = Buffer.from(bytes);
        expect(run({ text: buffer.toString("hex"), textEncoding: "hex" })).toEqual({
          encoded: buffer.toString("base64url"),
          textBytes: bytes.length,
        });
      }),
      { seed: 20261127, numRuns: 300 },
    );
  });
});

describeEncoder(operation, execute);
