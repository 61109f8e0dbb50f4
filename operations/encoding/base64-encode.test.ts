import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { describeEncoder } from "./_encode-suite.js";
import operation from "./base64-encode.js";

const run = (input: Record<string, unknown>) => execute(operation, input);

describe("encoding/base64-encode", () => {
  // RFC 4648 section 10.
  it.each([
    ["", ""],
    ["f", "Zg=="],
    ["fo", "Zm8="],
    ["foo", "Zm9v"],
    ["foob", "Zm9vYg=="],
    ["fooba", "Zm9vYmE="],
    ["foobar", "Zm9vYmFy"],
  ])("BASE64(%j) = %j", (text, encoded) => {
    expect(run({ text })).toEqual({ encoded, textBytes: text.length });
    expect(run({ text, padding: false })).toEqual({
      encoded: encoded.replace(/=+$/, ""),
      textBytes: text.length,
    });
  });

  it("uses the standard alphabet", () => {
    expect(run({ text: "fbff", textEncoding: "hex" })).toEqual({ encoded: "+/8=", textBytes: 2 });
  });

  it("writes what Buffer writes, for any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const buffer = Buffer.from(bytes);
        expect(run({ text: buffer.toString("hex"), textEncoding: "hex" })).toEqual({
          encoded: buffer.toString("base64"),
          textBytes: bytes.length,
        });
      }),
      { seed: 20261127, numRuns: 300 },
    );
  });
});

describeEncoder(operation, execute);
