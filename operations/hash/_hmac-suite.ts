/**
 * The tests every HMAC operation built by `_hmac.ts` shares: RFC 4231's seven cases (the
 * caller gives the digests of its hash), encodings, refusals and a property test against
 * `createHmac`. Skipped by the loader: `_` prefix.
 */
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import { hmac } from "./_hmac.js";

type AnyOperation = Parameters<typeof itAnswersItsExamples>[0];
/** The runner, passed in by the test file (files here other than tests may not import `src/`). */
type Execute = (operation: AnyOperation, input: Record<string, unknown>) => unknown;

const LONG_KEY = "aa".repeat(131);

/** RFC 4231 section 4: key, key encoding, data, data encoding of test cases 1 to 7. */
const RFC_4231_INPUTS = [
  { key: "0b".repeat(20), keyEncoding: "hex", text: "Hi There", textEncoding: "utf8" },
  { key: "Jefe", keyEncoding: "utf8", text: "what do ya want for nothing?", textEncoding: "utf8" },
  { key: "aa".repeat(20), keyEncoding: "hex", text: "dd".repeat(50), textEncoding: "hex" },
  {
    key: "0102030405060708090a0b0c0d0e0f10111213141516171819",
    keyEncoding: "hex",
    text: "cd".repeat(50),
    textEncoding: "hex",
  },
  { key: "0c".repeat(20), keyEncoding: "hex", text: "Test With Truncation", textEncoding: "utf8" },
  {
    key: LONG_KEY,
    keyEncoding: "hex",
    text: "Test Using Larger Than Block-Size Key - Hash Key First",
    textEncoding: "utf8",
  },
  {
    key: LONG_KEY,
    keyEncoding: "hex",
    text: "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.",
    textEncoding: "utf8",
  },
];

/**
 * Declares the shared cases for `operation` (HMAC over `hash` with a `blockBytes` block).
 * `vectors` are RFC 4231's results for cases 1 to 7 (case 5 truncated to 128 bits).
 */
export function describeHmac(
  operation: AnyOperation,
  hash: string,
  blockBytes: number,
  vectors: string[],
  execute: Execute,
): void {
  const run = (input: Record<string, unknown>) =>
    execute(operation, input) as Record<string, unknown>;
  const algorithm = `hmac-${hash}`;

  describe(`hash/${algorithm}`, () => {
    it.each(
      RFC_4231_INPUTS.map((input, index) => [index + 1, input, vectors[index] ?? ""] as const),
    )("RFC 4231 test case %i", (_case, input, digest) => {
      const answer = run(input);
      expect(answer).toMatchObject({ algorithm, encoding: "hex" });
      // Case 5 gives only the first 128 bits: a truncated HMAC is a prefix.
      expect(String(answer.digest).startsWith(digest)).toBe(true);
      expect(digest.length).toBeGreaterThanOrEqual(32);
    });

    it.each([
      ["empty text and key", { text: "", key: "" }, Buffer.alloc(0), Buffer.alloc(0)],
      ["multi-byte UTF-8", { text: "héllo ✓ 😀", key: "clé" }, "héllo ✓ 😀", "clé"],
      [
        "a base64 key without padding",
        { text: "m", key: "SmVmZQ", keyEncoding: "base64" },
        "m",
        "Jefe",
      ],
      [
        "a key exactly one block long",
        { text: "m", key: "ab".repeat(blockBytes), keyEncoding: "hex" },
        "m",
        Buffer.alloc(blockBytes, 0xab),
      ],
      [
        "a key one byte over a block",
        { text: "m", key: "ab".repeat(blockBytes + 1), keyEncoding: "hex" },
        "m",
        Buffer.alloc(blockBytes + 1, 0xab),
      ],
    ])("%s", (_title, input, text, key) => {
      expect(run(input)).toEqual({
        algorithm,
        digest: createHmac(hash, key).update(text).digest("hex"),
        encoding: "hex",
        textBytes: Buffer.byteLength(text),
        keyBytes: Buffer.byteLength(key),
      });
    });

    it("writes the digest in base64 when asked", () => {
      expect(run({ text: "t", key: "k", encoding: "base64" })).toMatchObject({
        digest: createHmac(hash, "k").update("t").digest("base64"),
        encoding: "base64",
      });
    });

    itAnswersItsExamples(operation);

    it.each([
      ["odd-length hex key", { key: "abc", keyEncoding: "hex" }, ["key"]],
      ["base64 text with junk", { text: "SmVm!ZQ==", textEncoding: "base64" }, ["text"]],
      ["base64 with non-zero unused bits", { key: "SmVmZR==", keyEncoding: "base64" }, ["key"]],
    ])("refuses %s at %j", (_title, bad, loc) => {
      const problems = problemsOf(operation, { text: "message", key: "key", ...bad });
      expect(locTypes(problems)).toEqual([[loc, "value_error"]]);
    });

    it.each([
      ["missing text", { key: "k" }, [[["text"], "missing"]]],
      ["missing key", { text: "t" }, [[["key"], "missing"]]],
      [
        "unknown key encoding",
        { text: "t", key: "k", keyEncoding: "x" },
        [[["keyEncoding"], "enum"]],
      ],
    ])("refuses %s", (_title, input, expected) => {
      expect(locTypes(problemsOf(operation, input))).toEqual(expected);
    });

    it("refuses a key over 100,000 characters", () => {
      const problems = problemsOf(operation, { text: "t", key: "k".repeat(100_001) });
      expect(problems.map((p) => p.type)).toEqual(["string_too_long"]);
    });

    it("declares the cost of hashing text and key", () => {
      expect(operation.cost?.({ text: "a".repeat(100), key: "k".repeat(10) })).toEqual({
        work: 3300,
        bytes: 512,
      });
    });

    it("computes what createHmac does, for keys shorter and longer than a block", () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ maxLength: 3 * blockBytes }),
          fc.uint8Array({ maxLength: 300 }),
          (key, message) => {
            const expected = createHmac(hash, key).update(message).digest("hex");
            expect(hmac(hash, blockBytes, key, message).toString("hex")).toBe(expected);
          },
        ),
        { seed: 20261127, numRuns: 1000 },
      );
    });
  });
}
