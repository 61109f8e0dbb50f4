import { describe, expect, it } from "vitest";
import { z } from "../kit/index.js";
import { decimal, integer, list, text } from "../kit/params.js";
import { summarizeProblems, toProblems } from "./problems.js";

const schema = z
  .object({
    amount: decimal({ min: "0" }),
    count: integer({ min: 1, max: 10 }),
    name: text({ min: 2, max: 5 }),
    numbers: list(decimal(), { min: 2, max: 3 }),
    unit: z.enum(["m", "ft", "in"]),
    even: integer().refine((n) => n % 2 === 0, "must be even"),
  })
  .strict();

const valid = { amount: "1", count: 2, name: "abc", numbers: ["1", "2"], unit: "m", even: 2 };

function problemsOf(change: Record<string, unknown>) {
  const input = { ...valid, ...change };
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`accepted ${JSON.stringify(change)}`);
  return toProblems(result.error.issues, schema, input);
}

describe("toProblems: zod issues in Pydantic's shape", () => {
  it.each([
    ["a missing field", { count: undefined }, ["count"], "missing", "Field required"],
    ["a decimal that is not one", { amount: "abc" }, ["amount"], "float_parsing", undefined],
    ["an integer that is not one", { count: "x" }, ["count"], "int_parsing", undefined],
    ["an item of a list", { numbers: ["1", "x"] }, ["numbers", "1"], "float_parsing", undefined],
    [
      "an integer below its minimum",
      { count: 0 },
      ["count"],
      "greater_than_equal",
      "Input should be greater than or equal to 1",
    ],
    [
      "an integer above its maximum",
      { count: 11 },
      ["count"],
      "less_than_equal",
      "Input should be less than or equal to 10",
    ],
    [
      "a short string",
      { name: "a" },
      ["name"],
      "string_too_short",
      "String should have at least 2 characters",
    ],
    [
      "a short list",
      { numbers: ["1"] },
      ["numbers"],
      "too_short",
      "List should have at least 2 items after validation, not 1",
    ],
    [
      "a value outside an enum",
      { unit: "yd" },
      ["unit"],
      "enum",
      "Input should be 'm', 'ft' or 'in'",
    ],
    ["a refinement", { even: 3 }, ["even"], "value_error", "Value error, must be even"],
    [
      "an unknown field",
      { extra: 1 },
      ["extra"],
      "extra_forbidden",
      "Extra inputs are not permitted",
    ],
  ] as const)("%s", (_what, change, loc, type, msg) => {
    const [problem, ...others] = problemsOf(change);
    expect(others).toEqual([]);
    expect(problem?.loc).toEqual(loc);
    expect(problem?.type).toBe(type);
    if (msg) expect(problem?.msg).toBe(msg);
  });

  it("never echoes the offending value", () => {
    const [problem] = problemsOf({ amount: "NaN-secret" });
    expect(JSON.stringify(problem)).not.toContain("NaN-secret");
  });
});

describe("toProblems with json: a body's values have JSON types", () => {
  const body = z
    .object({
      name: z.string(),
      plan: z.object({ limit: z.int() }).strict().nullable().optional(),
      meta: z.record(z.string(), z.unknown()).optional(),
      at: z.iso.datetime({ offset: true }).optional(),
      scope: z
        .string()
        .regex(/^[a-z]+$/)
        .optional(),
      on: z.boolean().optional(),
      tags: z.array(z.string()).optional(),
    })
    .strict();
  const problemsOf = (input: unknown, json = true) =>
    toProblems(body.safeParse(input).error?.issues ?? [], body, input, { json });

  it.each([
    ["a number for a string", { name: 5 }, ["name"], "string_type"],
    [
      "a string for an integer, nested",
      { name: "k", plan: { limit: "1" } },
      ["plan", "limit"],
      "int_type",
    ],
    [
      "a fraction for an integer",
      { name: "k", plan: { limit: 1.5 } },
      ["plan", "limit"],
      "int_type",
    ],
    ["a number for a nullable object", { name: "k", plan: 3 }, ["plan"], "dict_type"],
    ["a list for a record", { name: "k", meta: [] }, ["meta"], "dict_type"],
    ["a string for a boolean", { name: "k", on: "yes" }, ["on"], "bool_type"],
    ["a string for a list", { name: "k", tags: "a" }, ["tags"], "list_type"],
    ["a malformed time", { name: "k", at: "2001-02-30T00:00:00Z" }, ["at"], "datetime_parsing"],
    ["a string off its pattern", { name: "k", scope: "A" }, ["scope"], "string_pattern_mismatch"],
  ] as const)("%s", (_what, input, loc, type) => {
    expect(problemsOf(input).map((p) => [p.loc, p.type])).toEqual([[loc, type]]);
  });

  it("names the pattern as Pydantic does, without the RegExp's slashes", () => {
    expect(problemsOf({ name: "k", scope: "A" })[0]).toMatchObject({
      msg: "String should match pattern '^[a-z]+$'",
      ctx: { pattern: "^[a-z]+$" },
    });
  });

  it("without json, a schema no query parameter has is a value_error, not a throw", () => {
    expect(problemsOf({ name: "k", plan: 3 }, false).map((p) => p.type)).toEqual(["value_error"]);
  });
});

describe("summarizeProblems", () => {
  const problem = (loc: string[], msg: string) => ({ loc, msg, type: "value_error" });
  it.each([
    [[], ""],
    [[problem(["a"], "one")], "a: one"],
    [[problem([], "whole input")], "whole input"],
    [[problem(["a", "0"], "x"), problem(["b"], "y"), problem(["c"], "z")], "a.0: x; b: y; c: z"],
    [
      Array.from({ length: 10_000 }, (_, i) => problem([String(i)], "bad")),
      "0: bad; 1: bad; 2: bad; and 9997 more",
    ],
  ])("%#", (problems, summary) => {
    expect(summarizeProblems(problems)).toBe(summary);
  });
});
