import { describe, expect, it } from "vitest";
import { execute } from "../../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../../_testing.js";
import md5 from "./md5.js";

const run = (input: Record<string, unknown>) => execute(md5, input);

describe("crypto/checksum/md5", () => {
  // RFC 1321, appendix A.5: the MD5 test suite.
  it.each([
    ["", "d41d8cd98f00b204e9800998ecf8427e"],
    ["a", "0cc175b9c0f1b6a831c399e269772661"],
    ["abc", "900150983cd24fb0d6963f7d28e17f72"],
    ["message digest", "f96b697d7cb7938d525a2f31aaf161d0"],
    ["abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"],
    [
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
      "d174ab98d277d9f5a5611c2c9f419d9f",
    ],
    ["1234567890".repeat(8), "57edf4a22be3c955ac49da2e2107b67a"],
  ])("MD5(%j) = %s (RFC 1321)", (text, digest) => {
    expect(run({ text })).toEqual({
      algorithm: "md5",
      digest,
      encoding: "hex",
      textBytes: text.length,
    });
  });

  it.each([
    ["multi-byte UTF-8", { text: "héllo wörld ✓ 😀" }, "89aa2b820ceff5e2668f906e050e431d", 22],
    ["abc as hex", { text: "616263", textEncoding: "hex" }, "900150983cd24fb0d6963f7d28e17f72", 3],
    [
      "message digest as upper-case hex",
      { text: "6D65737361676520646967657374", textEncoding: "hex" },
      "f96b697d7cb7938d525a2f31aaf161d0",
      14,
    ],
    [
      "abc as base64",
      { text: "YWJj", textEncoding: "base64" },
      "900150983cd24fb0d6963f7d28e17f72",
      3,
    ],
    [
      "a as unpadded base64",
      { text: "YQ", textEncoding: "base64" },
      "0cc175b9c0f1b6a831c399e269772661",
      1,
    ],
    [
      "a as padded base64",
      { text: "YQ==", textEncoding: "base64" },
      "0cc175b9c0f1b6a831c399e269772661",
      1,
    ],
    [
      "the empty string as hex",
      { text: "", textEncoding: "hex" },
      "d41d8cd98f00b204e9800998ecf8427e",
      0,
    ],
    [
      "the empty string as base64",
      { text: "", textEncoding: "base64" },
      "d41d8cd98f00b204e9800998ecf8427e",
      0,
    ],
    [
      "binary bytes",
      { text: "00ff10", textEncoding: "hex" },
      "481e4551ec039aada760901cf52b1917",
      3,
    ],
  ])("%s", (_title, input, digest, textBytes) => {
    expect(run(input)).toEqual({ algorithm: "md5", digest, encoding: "hex", textBytes });
  });

  it.each([
    ["abc", "kAFQmDzST7DWlj99KOF/cg=="],
    ["", "1B2M2Y8AsgTpgAmY7PhCfg=="],
  ])("writes MD5(%j) in base64 as %s", (text, digest) => {
    expect(run({ text, encoding: "base64" })).toEqual({
      algorithm: "md5",
      digest,
      encoding: "base64",
      textBytes: text.length,
    });
  });

  itAnswersItsExamples(md5);

  it.each([
    ["odd-length hex", { text: "616", textEncoding: "hex" }],
    ["non-hex characters", { text: "61g2", textEncoding: "hex" }],
    ["base64 with junk", { text: "YW*Jj", textEncoding: "base64" }],
    ["base64 of impossible length", { text: "YWJjZ", textEncoding: "base64" }],
    ["base64 with non-zero unused bits", { text: "YR==", textEncoding: "base64" }],
  ])("refuses %s at text", (_title, input) => {
    expect(locTypes(problemsOf(md5, input))).toEqual([[["text"], "value_error"]]);
  });

  it.each([
    ["missing text", {}, [[["text"], "missing"]]],
    ["unknown text encoding", { text: "abc", textEncoding: "utf16" }, [[["textEncoding"], "enum"]]],
    ["unknown digest encoding", { text: "abc", encoding: "base32" }, [[["encoding"], "enum"]]],
  ])("refuses %s", (_title, input, expected) => {
    expect(locTypes(problemsOf(md5, input))).toEqual(expected);
  });

  it("refuses text over 100,000 characters", () => {
    expect(problemsOf(md5, { text: "a".repeat(100_001) }).map((p) => p.type)).toEqual([
      "string_too_long",
    ]);
  });
});
