/**
 * The tests every digest checksum built by `_digest.ts` shares (called from each module's
 * own test file, beside its standard's vectors). Skipped by the loader: `_` prefix.
 */
import { hash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { itAnswersItsExamples, locTypes, problemsOf } from "../../_testing.js";

type AnyOperation = Parameters<typeof itAnswersItsExamples>[0];
/** The runner, passed in by the test file (files here other than tests may not import `src/`). */
type Execute = (operation: AnyOperation, input: Record<string, unknown>) => unknown;

/** Declares the shared cases for `operation`, which must equal `hash(nodeAlgorithm)`. */
export function describeDigest(
  operation: AnyOperation,
  nodeAlgorithm: string,
  execute: Execute,
): void {
  const run = (input: Record<string, unknown>) => execute(operation, input);
  const name = operation.name.replace("checksum/", "");

  describe(`${operation.area}/${operation.name}: shared digest behaviour`, () => {
    itAnswersItsExamples(operation);

    it.each([
      ["multi-byte UTF-8", { text: "héllo wörld ✓ 😀" }, Buffer.from("héllo wörld ✓ 😀")],
      ["hex, either case", { text: "00FFaa", textEncoding: "hex" }, Buffer.from([0, 255, 170])],
      ["unpadded base64", { text: "YQ", textEncoding: "base64" }, Buffer.from("a")],
      ["padded base64", { text: "YQ==", textEncoding: "base64" }, Buffer.from("a")],
      ["empty hex", { text: "", textEncoding: "hex" }, Buffer.alloc(0)],
    ])("hashes %s", (_title, input, bytes) => {
      expect(run(input)).toEqual({
        algorithm: name,
        digest: hash(nodeAlgorithm, bytes, "hex"),
        encoding: "hex",
        textBytes: bytes.length,
      });
    });

    it("writes the digest in base64 when asked", () => {
      expect(run({ text: "abc", encoding: "base64" })).toMatchObject({
        digest: hash(nodeAlgorithm, "abc", "base64"),
        encoding: "base64",
      });
    });

    it("hashes the bytes it is given, whatever they are", () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
          const answer = run({ text: Buffer.from(bytes).toString("hex"), textEncoding: "hex" });
          expect(answer).toMatchObject({ digest: hash(nodeAlgorithm, bytes, "hex") });
        }),
        { seed: 20261127, numRuns: 300 },
      );
    });

    it.each([
      ["odd-length hex", { text: "616", textEncoding: "hex" }],
      ["non-hex characters", { text: "61g2", textEncoding: "hex" }],
      ["base64 with junk", { text: "YW*Jj", textEncoding: "base64" }],
      ["base64 of impossible length", { text: "YWJjZ", textEncoding: "base64" }],
      ["base64 with non-zero unused bits", { text: "YR==", textEncoding: "base64" }],
      ["a lone surrogate", { text: "a\uD800b" }],
    ])("refuses %s at text", (_title, input) => {
      expect(locTypes(problemsOf(operation, input))).toEqual([[["text"], "value_error"]]);
    });

    it.each([
      ["missing text", {}, [[["text"], "missing"]]],
      ["unknown text encoding", { text: "a", textEncoding: "utf16" }, [[["textEncoding"], "enum"]]],
      ["unknown digest encoding", { text: "a", encoding: "base32" }, [[["encoding"], "enum"]]],
    ])("refuses %s", (_title, input, expected) => {
      expect(locTypes(problemsOf(operation, input))).toEqual(expected);
    });

    it("takes 100,000 characters and refuses 100,001", () => {
      expect(run({ text: "a".repeat(100_000) })).toMatchObject({ textBytes: 100_000 });
      expect(problemsOf(operation, { text: "a".repeat(100_001) }).map((p) => p.type)).toEqual([
        "string_too_long",
      ]);
    });

    it("declares the cost of hashing its text", () => {
      expect(operation.cost?.({ text: "a".repeat(1000) })).toEqual({ work: 30_000, bytes: 512 });
    });
  });
}
