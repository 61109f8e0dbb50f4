/**
 * Compiled input checks answer exactly what zod answers, or step aside: for every
 * operation in the registry, on its examples and on generated values of every kind
 * (valid, out of range, of the wrong type), the compiled check either gives zod's parse
 * or UNSURE, and never vouches for input zod refuses.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compileInput, inputCheckOf, UNSURE } from "../src/core/compile-input.js";
import type { AnyOperation } from "../src/kit/define.js";
import {
  decimal,
  describeParam,
  integer,
  list,
  type ParamDescription,
  text,
} from "../src/kit/params.js";
import { allOperations } from "./helpers.js";

const operations = await allOperations();
const idOf = (operation: AnyOperation) => `${operation.area}/${operation.name}`;

/** Zod omits an absent optional key; the compiled check keeps one shape with it undefined. */
function withoutUndefined(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

/** The property every compiled check keeps, for one input. */
function agreesWithZod(
  schema: z.ZodObject,
  check: (input: Record<string, unknown>) => unknown,
  input: Record<string, unknown>,
) {
  const compiled = check(input);
  if (compiled === UNSURE) return;
  const parsed = schema.safeParse(input);
  expect(
    parsed.success,
    `compiled check vouched for ${JSON.stringify(input)}, zod refuses it`,
  ).toBe(true);
  expect(withoutUndefined(compiled)).toEqual(parsed.data);
}

const decimalText = fc.oneof(
  fc.constantFrom(
    "0",
    "-0",
    "+5",
    "1",
    "007",
    ".5",
    "5.",
    "-1.25",
    "1e3",
    "2.5E-4",
    "1e-999999999",
    "NaN",
    "",
    " 1",
    "0x10",
    "1_000",
  ),
  fc.integer({ min: -1e9, max: 1e9 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.string({ maxLength: 40 }),
  fc.stringMatching(/^-?\d{1,20}(\.\d{0,20})?$/),
);

/** Values a gateway might pass for a parameter: right and wrong types alike. */
function valueFor(param: ParamDescription): fc.Arbitrary<unknown> {
  const wrong = fc.constantFrom<unknown>(undefined, null, 1.5, "x", true, [], {});
  switch (param.kind) {
    case "decimal":
      return fc.oneof(decimalText, wrong);
    case "integer":
      return fc.oneof(
        fc.integer({ min: (param.min ?? -1e6) - 3, max: (param.max ?? 1e6) + 3 }),
        fc.constantFrom(2 ** 53, -(2 ** 53), Number.NaN, Number.POSITIVE_INFINITY, 0.5),
        // Each bound and its neighbours outside.
        fc.constantFrom(
          ...[param.min, param.max].flatMap((b) => (b === undefined ? [] : [b - 1, b, b + 1])),
        ),
        wrong,
      );
    case "boolean":
      return fc.oneof(fc.boolean(), wrong);
    case "enum":
      return fc.oneof(fc.constantFrom(...(param.values ?? [])), fc.string({ maxLength: 8 }), wrong);
    case "string":
      return fc.oneof(
        fc.string({ maxLength: (param.max ?? 20) + 2 }),
        fc.stringMatching(/^[a-z]{1,6}-\d{3}$/),
        wrong,
      );
    case "list": {
      const item = valueFor(param.item as ParamDescription);
      return fc.oneof(fc.array(item, { maxLength: 6 }), wrong);
    }
  }
}

function inputFor(operation: AnyOperation): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, schema] of Object.entries(operation.input.shape)) {
    fields[name] = valueFor(describeParam(schema as z.ZodType));
  }
  return fc.record(fields, { requiredKeys: [] });
}

describe.each(operations.map((operation) => [idOf(operation), operation] as const))(
  "%s",
  (_id, operation) => {
    const check = inputCheckOf(operation);

    it("gives zod's parse for every example (the fast path when compiled)", () => {
      const compiledAtAll = compileInput(operation.input) !== undefined;
      for (const example of operation.examples) {
        const compiled = check(example.input);
        if (compiledAtAll) expect(compiled).not.toBe(UNSURE);
        agreesWithZod(operation.input, check, example.input);
      }
    });

    it("never vouches for input zod refuses, and otherwise gives zod's parse", () => {
      fc.assert(
        fc.property(inputFor(operation), (input) => agreesWithZod(operation.input, check, input)),
        { seed: 20251123, numRuns: 300 },
      );
    });
  },
);

it("compiles the arithmetic operations (their inputs are all built from kit parameters)", () => {
  for (const id of [
    "math/sum",
    "math/subtract",
    "stats/product",
    "math/nth-root",
    "finance/simple-interest",
  ]) {
    const operation = operations.find((o) => idOf(o) === id);
    expect(operation && compileInput(operation.input), id).toBeDefined();
  }
});

describe("compileInput", () => {
  const cases: [string, z.ZodObject, Record<string, unknown>, unknown][] = [
    [
      "decimal",
      z.object({ a: decimal() }),
      { a: "0.1" },
      { a: expect.objectContaining({ d: expect.any(Array) }) },
    ],
    ["decimal below min", z.object({ a: decimal({ min: "0" }) }), { a: "-1" }, UNSURE],
    ["integer in bounds", z.object({ n: integer({ min: 1, max: 3 }) }), { n: 3 }, { n: 3 }],
    ["integer above max", z.object({ n: integer({ min: 1, max: 3 }) }), { n: 4 }, UNSURE],
    ["integer, a fraction", z.object({ n: integer() }), { n: 1.5 }, UNSURE],
    ["boolean default used", z.object({ b: z.boolean().default(true) }), {}, { b: true }],
    ["enum", z.object({ e: z.enum(["x", "y"]) }), { e: "y" }, { e: "y" }],
    ["enum, other", z.object({ e: z.enum(["x", "y"]) }), { e: "z" }, UNSURE],
    ["optional absent", z.object({ o: z.string().optional() }), {}, { o: undefined }],
    ["regex", z.object({ s: z.string().regex(/^a+$/) }), { s: "aa" }, { s: "aa" }],
    ["regex failing", z.object({ s: z.string().regex(/^a+$/) }), { s: "ab" }, UNSURE],
    ["text within max", z.object({ t: text({ min: 1, max: 3 }) }), { t: "abc" }, { t: "abc" }],
    [
      "text past max in UTF-16 units (zod counts)",
      z.object({ t: text({ max: 1 }) }),
      { t: "😀" },
      UNSURE,
    ],
    [
      "text with a lone surrogate (zod refuses it)",
      z.object({ t: text({ max: 9 }) }),
      { t: "a\uD800" },
      UNSURE,
    ],
    ["a string format schema, refused", z.object({ e: z.email() }), { e: "nope" }, UNSURE],
    [
      "a string format schema, accepted",
      z.object({ e: z.uuid() }),
      { e: "123e4567-e89b-12d3-a456-426614174000" },
      { e: "123e4567-e89b-12d3-a456-426614174000" },
    ],
    ["list too short", z.object({ l: list(decimal(), { min: 1, max: 2 }) }), { l: [] }, UNSURE],
    ["unknown keys dropped", z.object({ a: z.boolean() }), { a: true, extra: 1 }, { a: true }],
    [
      "a schema it cannot read is parsed by zod",
      z.object({ d: z.string().email() }),
      { d: "a@b.co" },
      { d: "a@b.co" },
    ],
  ];
  it.each(cases)("%s", (_why, schema, input, expected) => {
    const check = compileInput(schema);
    expect(check).toBeDefined();
    expect(check?.(input)).toEqual(expected);
  });

  // Object-level refinements run on the parsed object; whatever they refuse goes to zod.
  const matching = z.object({ a: z.string(), b: z.string() }).superRefine((input, ctx) => {
    if (input.a !== input.b) ctx.addIssue({ code: "custom", message: "a and b differ" });
  });
  const refined = z.object({ a: z.int() }).refine((input) => input.a % 2 === 0);
  const async = z.object({ a: z.string() }).refine(async () => true);
  it.each([
    [
      "a refinement that passes: the parsed object",
      matching,
      { a: "x", b: "x" },
      { a: "x", b: "x" },
    ],
    ["a refinement that reports an issue: zod decides", matching, { a: "x", b: "y" }, UNSURE],
    ["a refine() that holds", refined, { a: 2 }, { a: 2 }],
    ["a refine() that fails", refined, { a: 3 }, UNSURE],
    ["a field that fails: the refinement does not run", refined, { a: "2" }, UNSURE],
    ["an asynchronous refinement: zod decides", async, { a: "x" }, UNSURE],
  ] as const)("%s", (_why, schema, input, expected) => {
    const check = compileInput(schema as unknown as z.ZodObject);
    expect(check).toBeDefined();
    expect(check?.(input)).toEqual(expected);
    if (expected !== UNSURE)
      expect(schema.safeParse(input)).toEqual({ success: true, data: expected });
  });

  it("gives each call a fresh default, as zod does", () => {
    const check = compileInput(z.object({ l: z.array(z.string()).default(["a"]) }));
    const first = check?.({}) as { l: string[] };
    first.l.push("b");
    expect(check?.({})).toEqual({ l: ["a"] });
  });
});
