import { describe, expect, it } from "vitest";
import type { Runner } from "../core/runner.js";
import { defineOperation, list, text, z } from "../kit/index.js";
import { resolveOperation } from "./resolve.js";

const join = defineOperation({
  area: "t",
  name: "join",
  summary: "Joins its words",
  description: "A fixture joining a list of words, with an optional separator.",
  input: z.object({
    words: list(text({ max: 10 }), { min: 1, max: 10_000 }),
    separator: text({ max: 3 }).optional(),
  }),
  output: z.object({ text: z.string() }),
  examples: [{ title: "two", input: { words: ["a", "b"] }, output: { text: "a b" } }],
  handler: ({ words, separator }) => ({ text: words.join(separator ?? " ") }),
});

/** A runner that records the input objects it is handed. */
function recording() {
  const inputs: Record<string, unknown>[] = [];
  const run: Runner = (_operation, input) => {
    inputs.push(input);
    return { text: "" };
  };
  return { run, inputs };
}

describe("resolveOperation", () => {
  it("hands the runner graphql-jit's own arguments object when no argument is null", () => {
    const { run, inputs } = recording();
    const args = { words: ["a"], separator: "-" };
    resolveOperation(run, join, args, {});
    expect(inputs[0]).toBe(args);
  });

  it("drops an explicit null (not given, as in REST) from a copy", () => {
    const { run, inputs } = recording();
    const args = { words: ["a"], separator: null };
    resolveOperation(run, join, args, {});
    expect(inputs[0]).toEqual({ words: ["a"] });
    expect(args).toEqual({ words: ["a"], separator: null });
  });

  it("keeps the request's list items left on its context, across its fields", () => {
    const { run } = recording();
    const context: { listItemsLeft?: number } = {};
    resolveOperation(run, join, { words: ["a", "b", "c"] }, context);
    expect(context.listItemsLeft).toBe(10_000 - 3);
    resolveOperation(run, join, { words: Array(9_997).fill("a") }, context);
    expect(context.listItemsLeft).toBe(0);
    expect(() => resolveOperation(run, join, { words: ["a"] }, context)).toThrow(
      /more than 10000 list items/,
    );
  });
});
