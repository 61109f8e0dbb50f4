import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation } from "../kit/define.js";
import { decimal, list } from "../kit/params.js";
import {
  budgetProblem,
  chargedCost,
  declaredAnswer,
  declaredCost,
  overBudget,
  takeSentItems,
} from "./budget.js";

const costed = (input: z.ZodObject) =>
  defineOperation({
    area: "test",
    name: "costed",
    summary: "Counts its items",
    description: "A fixture whose cost is its item count.",
    input,
    output: z.object({}),
    examples: [],
    cost: (parsed) => ({ work: (parsed.items as unknown[]).length, bytes: 1 }),
    handler: () => ({}),
  });
// The compiled check vouches for this list; the email schema only zod can read.
const compiled = costed(z.object({ items: list(decimal(), { min: 1, max: 3 }) }));
const zodOnly = costed(z.object({ items: z.array(z.email()).max(3) }));
const uncosted = defineOperation({
  area: "test",
  name: "free",
  summary: "Free",
  description: "A fixture without a cost.",
  input: z.object({
    text: z.string().optional(),
    items: list(decimal(), { min: 0, max: 3 }).optional(),
  }),
  output: z.object({}),
  examples: [],
  handler: () => ({}),
});

describe("declaredCost", () => {
  it.each([
    [
      "a valid input the compiled check reads",
      compiled,
      { items: ["1", "2"] },
      { work: 2, bytes: 1 },
    ],
    ["a valid input only zod reads", zodOnly, { items: ["a@b.co"] }, { work: 1, bytes: 1 }],
    ["an invalid input: the runner refuses it", compiled, { items: ["x"] }, undefined],
    ["an invalid input only zod reads", zodOnly, { items: ["nope"] }, undefined],
    ["an operation that declares no cost, nothing to read", uncosted, {}, { work: 0, bytes: 0 }],
    [
      "an operation that declares no cost: reading its text and list",
      uncosted,
      { text: "abcd", items: ["1.5", "-20"] },
      // 4 characters × 10, 2 items × 1,000, and 3 words of 7 digits × 10 (1.5 holds two)
      { work: 40 + 2000 + 210, bytes: 0 },
    ],
  ])("%s", (_case, operation, input, expected) => {
    expect(declaredCost(operation as never, input)).toEqual(expected);
  });
});

describe("chargedCost", () => {
  it.each([
    ["a valid input: what its operation declares", { items: ["1", "2"] }, { work: 2, bytes: 1 }],
    // Refusing reads every item: 4 × (3 items × 1,000 + 3 characters × 10).
    ["an invalid input: refusing it", { items: ["x", "y", "z"] }, { work: 4 * 3_030, bytes: 0 }],
  ])("%s", (_case, input, expected) => {
    expect(chargedCost(compiled as never, input)).toEqual(expected);
  });
});

describe("overBudget", () => {
  it("names the answer size first, then the work, and nothing when it fits", () => {
    expect(overBudget({ work: 1, bytes: 5_000_000 })).toMatch(/answer .* 5000000 bytes/);
    expect(overBudget({ work: 30_000_000, bytes: 1 })).toMatch(/30000000 digit operations/);
    expect(overBudget({ work: 1, bytes: 1 })).toBeUndefined();
  });
});

describe("takeSentItems", () => {
  const nested = (depth: number): unknown => (depth === 0 ? ["a", "b"] : [nested(depth - 1)]);
  it.each([
    ["a string", "1,2,3", 100],
    ["a number", 7, 100],
    ["null", null, 100],
    ["a list", ["1", "2", "3"], 97],
    ["an empty list", [], 100],
    ["an object's fields", { a: 1, b: 2 }, 98],
    ["lists inside an object", { a: ["1", "2"], b: [] }, 96],
    ["objects inside a list", [{ a: 1 }, { b: 2, c: 3 }], 95],
    ["nesting to depth 8", nested(8), 90],
    ["nothing below depth 8", nested(9), 91],
  ])("counts %s", (_name, value, left) => {
    const budget = { left: 100 };
    takeSentItems(value, budget);
    expect(budget.left).toBe(left);
  });

  it("stops once the budget is spent", () => {
    const budget = { left: 3 };
    const object = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, [1, 2]]));
    takeSentItems(object, budget);
    expect(budget.left).toBe(-1);
    const lists = { left: 3 };
    takeSentItems([[1, 2, 3, 4, 5], ...Array(1000).fill([1, 2])], lists);
    expect(lists.left).toBeLessThan(0);
    expect(lists.left).toBeGreaterThan(-2000);
  });
});

describe("the declared answer size, for the heavy lane", () => {
  const answering = (bytes: number) =>
    defineOperation({
      area: "test",
      name: "answering",
      summary: "Declares its answer",
      description: "A fixture whose declared answer size is its input.",
      input: z.object({}),
      output: z.object({}),
      examples: [],
      cost: () => ({ work: 1, bytes }),
      handler: () => ({}),
    });

  it("is left by the budget check of a calculation within the budget", () => {
    declaredAnswer.bytes = 0;
    expect(budgetProblem(answering(3_000_000), {})).toBeUndefined();
    expect(declaredAnswer.bytes).toBe(3_000_000);
  });

  it("is 0 for a calculation refused over the budget: its answer is the problem", () => {
    declaredAnswer.bytes = 7;
    expect(budgetProblem(answering(1e12), {})).toBeDefined();
    expect(declaredAnswer.bytes).toBe(0);
  });
});
