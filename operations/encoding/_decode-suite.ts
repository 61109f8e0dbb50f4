/**
 * Cases every decoder shares: output encodings, the UTF-8 refusal, limits and answers
 * within the declared cost. Skipped by the loader: `_` prefix.
 */
import { describe, expect, it } from "vitest";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";

type AnyOperation = Parameters<typeof itAnswersItsExamples>[0];
/** The runner, passed in by the test file (files here other than tests may not import `src/`). */
type Execute = (operation: AnyOperation, input: Record<string, unknown>) => unknown;

/**
 * `encode` writes bytes as the decoder reads them; `worst` are inputs at the length limit
 * whose answers must stay within the declared cost.
 */
export function describeDecoder(
  operation: AnyOperation,
  execute: Execute,
  encode: (bytes: Buffer) => string,
  worst: string[],
): void {
  const run = (input: Record<string, unknown>) => execute(operation, input);

  describe(`${operation.area}/${operation.name}: shared decoder behaviour`, () => {
    itAnswersItsExamples(operation);

    it("writes the decoded bytes in each encoding", () => {
      const bytes = Buffer.from("héllo ✓ 😀");
      const text = encode(bytes);
      expect(run({ text })).toEqual({
        decoded: "héllo ✓ 😀",
        encoding: "utf8",
        decodedBytes: bytes.length,
      });
      expect(run({ text, encoding: "hex" })).toEqual({
        decoded: bytes.toString("hex"),
        encoding: "hex",
        decodedBytes: bytes.length,
      });
      expect(run({ text, encoding: "base64" })).toEqual({
        decoded: bytes.toString("base64"),
        encoding: "base64",
        decodedBytes: bytes.length,
      });
    });

    it("decodes the empty text", () => {
      expect(run({ text: "" })).toEqual({ decoded: "", encoding: "utf8", decodedBytes: 0 });
    });

    it("keeps a byte-order mark and control characters", () => {
      const bytes = Buffer.from("\uFEFFa\u0000\n");
      expect(run({ text: encode(bytes) })).toMatchObject({ decoded: "\uFEFFa\u0000\n" });
    });

    it.each([
      ["a lone continuation byte", [0x61, 0x80], 1],
      ["a cut-short sequence", [0x61, 0x62, 0xe2, 0x82], 2],
      ["an encoded surrogate", [0xed, 0xa0, 0x80], 0],
      ["0xff", [0xff], 0],
    ])("refuses %s as utf8 at encoding, naming the offset", (_title, raw, offset) => {
      const text = encode(Buffer.from(raw));
      const problems = problemsOf(operation, { text });
      expect(locTypes(problems)).toEqual([[["encoding"], "value_error"]]);
      expect(problems[0]?.msg).toContain(`byte offset ${offset}`);
      expect(run({ text, encoding: "hex" })).toMatchObject({
        decoded: Buffer.from(raw).toString("hex"),
      });
    });

    it("refuses an unknown encoding, a missing text and text over 100,000 characters", () => {
      expect(locTypes(problemsOf(operation, { text: "", encoding: "latin1" }))).toEqual([
        [["encoding"], "enum"],
      ]);
      expect(locTypes(problemsOf(operation, {}))).toEqual([[["text"], "missing"]]);
      expect(problemsOf(operation, { text: "a".repeat(100_001) }).map((p) => p.type)).toEqual([
        "string_too_long",
      ]);
    });

    it.each(worst.map((text) => [text.slice(0, 12), text] as const))(
      "answers %s… within its declared cost, in each encoding",
      (_title, text) => {
        for (const encoding of ["utf8", "hex", "base64"]) {
          const input = { text, encoding };
          const cost = operation.cost?.(input) ?? { work: 0, bytes: 0 };
          expect(cost.work).toBeLessThanOrEqual(20_000_000);
          const answer = JSON.stringify(run(input));
          expect(Buffer.byteLength(answer)).toBeLessThanOrEqual(cost.bytes);
        }
      },
    );
  });
}
