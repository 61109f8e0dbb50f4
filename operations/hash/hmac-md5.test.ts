import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import hmacMd5, { hmacMd5 as hmac } from "./hmac-md5.js";

const run = (input: Record<string, unknown>) => execute(hmacMd5, input) as Record<string, unknown>;

const hex = (byte: string, count: number) => byte.repeat(count);

describe("hash/hmac-md5", () => {
  // RFC 2202, section 2: the seven HMAC-MD5 test cases, binary values given in hex.
  it.each([
    {
      case: 1,
      key: hex("0b", 16),
      keyEncoding: "hex",
      text: "Hi There",
      textEncoding: "utf8",
      digest: "9294727a3638bb1c13f48ef8158bfc9d",
    },
    {
      case: 2,
      key: "Jefe",
      keyEncoding: "utf8",
      text: "what do ya want for nothing?",
      textEncoding: "utf8",
      digest: "750c783e6ab0b503eaa86e310a5db738",
    },
    {
      case: 3,
      key: hex("aa", 16),
      keyEncoding: "hex",
      text: hex("dd", 50),
      textEncoding: "hex",
      digest: "56be34521d144c88dbb8c733f0e8b3f6",
    },
    {
      case: 4,
      key: "0102030405060708090a0b0c0d0e0f10111213141516171819",
      keyEncoding: "hex",
      text: hex("cd", 50),
      textEncoding: "hex",
      digest: "697eaf0aca3a3aea3a75164746ffaa79",
    },
    {
      case: 5,
      key: hex("0c", 16),
      keyEncoding: "hex",
      text: "Test With Truncation",
      textEncoding: "utf8",
      digest: "56461ef2342edc00f9bab995690efd4c",
    },
    {
      case: 6,
      key: hex("aa", 80),
      keyEncoding: "hex",
      text: "Test Using Larger Than Block-Size Key - Hash Key First",
      textEncoding: "utf8",
      digest: "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd",
    },
    {
      case: 7,
      key: hex("aa", 80),
      keyEncoding: "hex",
      text: "Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data",
      textEncoding: "utf8",
      digest: "6f630fad67cda0ee1fb1f562db3aa53e",
    },
  ])("RFC 2202 test case $case → $digest", ({ key, keyEncoding, text, textEncoding, digest }) => {
    expect(run({ text, key, keyEncoding, textEncoding })).toMatchObject({
      algorithm: "hmac-md5",
      digest,
      encoding: "hex",
    });
  });

  it("truncates to the RFC 2202 case 5 HMAC-MD5-96 value as a prefix", () => {
    const { digest } = run({
      text: "Test With Truncation",
      key: hex("0c", 16),
      keyEncoding: "hex",
    });
    expect(String(digest).slice(0, 24)).toBe("56461ef2342edc00f9bab995");
  });

  it.each([
    ["empty text and key", { text: "", key: "" }, "74e6f7298a9c2d168935f58c001bad88", 0, 0],
    [
      "empty text and key in hex",
      { text: "", key: "", textEncoding: "hex", keyEncoding: "hex" },
      "74e6f7298a9c2d168935f58c001bad88",
      0,
      0,
    ],
    [
      "empty key",
      { text: "what do ya want for nothing?", key: "" },
      "ae2e4b39f3b5ee2c8b585994294201ea",
      28,
      0,
    ],
    [
      "multi-byte UTF-8",
      { text: "héllo wörld ✓ 😀", key: "clé" },
      "45616380eb138562b2b480691e8d086f",
      22,
      4,
    ],
    [
      "the same key as base64",
      { text: "what do ya want for nothing?", key: "SmVmZQ==", keyEncoding: "base64" },
      "750c783e6ab0b503eaa86e310a5db738",
      28,
      4,
    ],
    [
      "base64 without padding",
      { text: "what do ya want for nothing?", key: "SmVmZQ", keyEncoding: "base64" },
      "750c783e6ab0b503eaa86e310a5db738",
      28,
      4,
    ],
    [
      "upper-case hex",
      { text: "Hi There", key: hex("0B", 16), keyEncoding: "hex" },
      "9294727a3638bb1c13f48ef8158bfc9d",
      8,
      16,
    ],
    [
      "text as base64",
      { text: "SGkgVGhlcmU=", textEncoding: "base64", key: hex("0b", 16), keyEncoding: "hex" },
      "9294727a3638bb1c13f48ef8158bfc9d",
      8,
      16,
    ],
  ])("%s", (_title, input, digest, textBytes, keyBytes) => {
    expect(run(input)).toEqual({
      algorithm: "hmac-md5",
      digest,
      encoding: "hex",
      textBytes,
      keyBytes,
    });
  });

  it("writes the digest in base64 when asked", () => {
    expect(run({ text: "what do ya want for nothing?", key: "Jefe", encoding: "base64" })).toEqual({
      algorithm: "hmac-md5",
      digest: "dQx4PmqwtQPqqG4xCl23OA==",
      encoding: "base64",
      textBytes: 28,
      keyBytes: 4,
    });
  });

  itAnswersItsExamples(hmacMd5);

  it.each([
    ["odd-length hex key", { key: "abc", keyEncoding: "hex" }, ["key"]],
    ["non-hex characters", { key: "zz", keyEncoding: "hex" }, ["key"]],
    ["hex with a 0x prefix", { text: "0x00", textEncoding: "hex" }, ["text"]],
    ["hex with spaces", { text: "00 11", textEncoding: "hex" }, ["text"]],
    ["base64 with junk", { key: "SmVm!ZQ==", keyEncoding: "base64" }, ["key"]],
    ["base64 with a space (an unescaped '+')", { text: "ab c", textEncoding: "base64" }, ["text"]],
    ["base64url characters", { text: "-_8=", textEncoding: "base64" }, ["text"]],
    ["base64 of impossible length", { text: "SmVmZ", textEncoding: "base64" }, ["text"]],
    ["base64 with padding in the middle", { text: "SmVm=ZQ==", textEncoding: "base64" }, ["text"]],
    ["base64 with too much padding", { text: "SmVmZQ===", textEncoding: "base64" }, ["text"]],
    ["base64 with the wrong padding", { text: "SmVmZg=", textEncoding: "base64" }, ["text"]],
    ["base64 with non-zero unused bits", { text: "SmVmZR==", textEncoding: "base64" }, ["text"]],
  ])("refuses %s at %j", (_title, bad, loc) => {
    const problems = problemsOf(hmacMd5, { text: "message", key: "key", ...bad });
    expect(locTypes(problems)).toEqual([[loc, "value_error"]]);
    expect(problems[0]?.msg).toMatch(/^Value error, (text|key) is not valid (hex|base64): it /);
  });

  it("reports a bad text and a bad key together", () => {
    const problems = problemsOf(hmacMd5, {
      text: "abc",
      textEncoding: "hex",
      key: "%%",
      keyEncoding: "base64",
    });
    expect(locTypes(problems)).toEqual([
      [["text"], "value_error"],
      [["key"], "value_error"],
    ]);
  });

  it("hints at URL-encoding when base64 contains a space", () => {
    const [problem] = problemsOf(hmacMd5, { text: "a b=", textEncoding: "base64", key: "" });
    expect(problem?.msg).toContain("%2B");
  });

  it.each([
    ["missing text", { key: "k" }, [[["text"], "missing"]]],
    ["missing key", { text: "t" }, [[["key"], "missing"]]],
    [
      "unknown text encoding",
      { text: "t", key: "k", textEncoding: "latin1" },
      [[["textEncoding"], "enum"]],
    ],
    [
      "unknown digest encoding",
      { text: "t", key: "k", encoding: "binary" },
      [[["encoding"], "enum"]],
    ],
  ])("refuses %s", (_title, input, expected) => {
    expect(locTypes(problemsOf(hmacMd5, input))).toEqual(expected);
  });

  // The loc of length problems is not asserted: src/core/problems.ts currently drops it
  // for zod's too_small/too_big issues (reported to the kit's owner).
  it.each([
    ["text", { text: "a".repeat(100_001), key: "k" }],
    ["key", { text: "t", key: "a".repeat(100_001) }],
  ])("refuses a %s over 100,000 characters", (_field, input) => {
    expect(problemsOf(hmacMd5, input).map((p) => p.type)).toEqual(["string_too_long"]);
  });

  it("accepts text of exactly 100,000 characters", () => {
    expect(run({ text: "a".repeat(100_000), key: "k" })).toMatchObject({ textBytes: 100_000 });
  });

  it("computes what node's createHmac does, for keys shorter and longer than a block", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.uint8Array({ maxLength: 300 }),
        (key, message) => {
          const expected = createHmac("md5", key).update(message).digest("hex");
          expect(hmac(key, message).toString("hex")).toBe(expected);
        },
      ),
      { seed: 20261123, numRuns: 2000 },
    );
  });
});
