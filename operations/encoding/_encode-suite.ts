/**
 * Cases every encoder shares: `textEncoding` input, refusals of malformed input, length
 * limits, and answers within the declared cost. Skipped by the loader: `_` prefix.
 */
import { describe, expect, it } from "vitest";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";

type AnyOperation = Parameters<typeof itAnswersItsExamples>[0];
/** The runner, passed in by the test file (files here other than tests may not import `src/`). */
type Execute = (operation: AnyOperation, input: Record<string, unknown>) => unknown;

export function describeEncoder(operation: AnyOperation, execute: Execute): void {
  const run = (input: Record<string, unknown>) =>
    execute(operation, input) as { encoded: string; textBytes: number };

  describe(`${operation.area}/${operation.name}: shared encoder behaviour`, () => {
    itAnswersItsExamples(operation);

    it("encodes the same bytes given as utf8, hex or base64", () => {
      const utf8 = run({ text: "héllo ✓ 😀" });
      const bytes = Buffer.from("héllo ✓ 😀");
      expect(run({ text: bytes.toString("hex"), textEncoding: "hex" })).toEqual(utf8);
      expect(run({ text: bytes.toString("base64"), textEncoding: "base64" })).toEqual(utf8);
      expect(utf8.textBytes).toBe(bytes.length);
    });

    it("encodes the empty text as the empty string", () => {
      expect(run({ text: "" })).toEqual({ encoded: "", textBytes: 0 });
    });

    it.each([
      ["odd-length hex", { text: "616", textEncoding: "hex" }],
      ["base64 with junk", { text: "YW*Jj", textEncoding: "base64" }],
      ["a lone surrogate", { text: "a\uDC00" }],
    ])("refuses %s at text", (_title, input) => {
      expect(locTypes(problemsOf(operation, input))).toEqual([[["text"], "value_error"]]);
    });

    it("refuses a missing text and text over 100,000 characters", () => {
      expect(locTypes(problemsOf(operation, {}))).toEqual([[["text"], "missing"]]);
      expect(problemsOf(operation, { text: "a".repeat(100_001) }).map((p) => p.type)).toEqual([
        "string_too_long",
      ]);
    });

    it.each([
      ["100,000 euro signs", "€".repeat(100_000)],
      ["100,000 spaces", " ".repeat(100_000)],
      ["50,000 emoji", "😀".repeat(50_000)],
    ])("answers %s within its declared cost and the request budget", (_title, text) => {
      const cost = operation.cost?.({ text }) ?? { work: 0, bytes: 0 };
      const answer = JSON.stringify(run({ text }));
      expect(Buffer.byteLength(answer)).toBeLessThanOrEqual(cost.bytes);
      expect(cost.work).toBeLessThanOrEqual(20_000_000);
    });
  });
}
