/**
 * Cases the identifier generators share: counts, given randomness and its refusals, fresh
 * answers on every call, the declared cost. Skipped by the loader: `_` prefix.
 */
import { describe, expect, it } from "vitest";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";

type AnyOperation = Parameters<typeof itAnswersItsExamples>[0];
/** The runner, passed in by the test file (files here other than tests may not import `src/`). */
type Execute = (operation: AnyOperation, input: Record<string, unknown>) => unknown;

/**
 * `field` is the answer's list; `pattern` what each identifier looks like; `randomBytes`
 * how many bytes of `randomness` one call of `count` takes.
 */
export function describeIdGenerator(
  operation: AnyOperation,
  execute: Execute,
  field: string,
  pattern: RegExp,
  randomBytes: (count: number) => number,
): void {
  const ids = (input: Record<string, unknown>) =>
    (execute(operation, input) as Record<string, string[]>)[field] ?? [];

  describe(`${operation.area}/${operation.name}: shared generator behaviour`, () => {
    itAnswersItsExamples(operation);

    it("declares itself nondeterministic", () => {
      expect(operation.nondeterministic).toMatch(/every call/);
    });

    it.each([1, 2, 17, 1000])("makes %i well-formed, distinct identifiers", (count) => {
      const made = ids({ count });
      expect(made).toHaveLength(count);
      for (const id of made) expect(id).toMatch(pattern);
      expect(new Set(made).size).toBe(count);
    });

    it("answers differently on every call", () => {
      const seen = new Set<string>();
      for (let i = 0; i < 50; i++) for (const id of ids({ count: 2 })) seen.add(id);
      expect(seen.size).toBe(100);
    });

    it("answers the same for the same given randomness", () => {
      const input = { count: 3, randomness: "5a".repeat(randomBytes(3)), timestamp: 1 };
      expect(ids(input)).toEqual(ids(input));
    });

    it.each([
      ["not hex", "zz", /not valid hexadecimal: it contains 'z' at index 0/],
      ["an odd number of digits", "abc", /lone hexadecimal digit at index 2/],
      ["too short", "00", /must be \d+ bytes/],
    ])("refuses randomness that is %s at randomness", (_title, randomness, message) => {
      const problems = problemsOf(operation, { randomness });
      expect(locTypes(problems)).toEqual([[["randomness"], "value_error"]]);
      expect(problems[0]?.msg).toMatch(message);
    });

    it("refuses randomness of one count's length for another count", () => {
      const randomness = "00".repeat(randomBytes(1));
      if (randomBytes(2) === randomBytes(1)) return; // one seed for any count
      expect(locTypes(problemsOf(operation, { count: 2, randomness }))).toEqual([
        [["randomness"], "value_error"],
      ]);
    });

    it.each([
      [0, "greater_than_equal"],
      [1001, "less_than_equal"],
      [1.5, "int_parsing"],
    ])("refuses count %s", (count, type) => {
      expect(locTypes(problemsOf(operation, { count }))).toEqual([[["count"], type]]);
    });

    it("answers within its declared bytes", () => {
      const cost = operation.cost?.({ count: 1000 }) ?? { work: 0, bytes: 0 };
      const answer = JSON.stringify(execute(operation, { count: 1000 }));
      expect(Buffer.byteLength(answer)).toBeLessThanOrEqual(cost.bytes);
      expect(cost.work).toBeLessThanOrEqual(20_000_000);
    });
  });
}
