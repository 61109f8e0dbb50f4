import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation, isOperation, OPERATION_BRAND } from "./define.js";

const spec = {
  area: "test",
  name: "answer",
  summary: "Answers 42",
  description: "A fixture.",
  input: z.object({}),
  output: z.object({ answer: z.int() }),
  examples: [{ title: "The answer", input: {}, output: { answer: 42 } }],
  handler: () => ({ answer: 42 }),
};

describe("defineOperation", () => {
  it("returns the spec as it was given, frozen and branded", () => {
    const operation = defineOperation(spec);
    expect(operation).toEqual({ ...spec, [OPERATION_BRAND]: true });
    expect(Object.isFrozen(operation)).toBe(true);
    expect(operation).not.toBe(spec);
    expect(Object.isFrozen(spec)).toBe(false);
  });
});

describe("isOperation", () => {
  it.each([
    ["an operation", defineOperation(spec), true],
    ["the same spec, undeclared", spec, false],
    [
      "another copy's operation (the brand is Symbol.for)",
      { ...spec, [Symbol.for("utility-calculation-service.operation")]: true },
      true,
    ],
    ["a module namespace", { default: defineOperation(spec) }, false],
    ["null", null, false],
    ["a function", () => spec, false],
  ])("%s → %s", (_case, value, expected) => {
    expect(isOperation(value)).toBe(expected);
  });
});
