import { type GraphQLObjectType, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation } from "../kit/define.js";
import { decimal, list } from "../kit/params.js";
import { exampleQuery, selectAll } from "./examples.js";
import { buildGraphqlSchema } from "./schema.js";

const NESTED = { total: "3", parts: [{ name: "a", size: 1 }], meta: { ok: true } };
const nested = defineOperation({
  area: "demo",
  name: "nested/sum",
  summary: "Nested",
  description: "A fixture with a nested and a list-of-objects result.",
  input: z.object({ numbers: list(decimal(), { min: 1, max: 9 }), mode: z.enum(["a", "b"]) }),
  output: z.object({
    total: z.string(),
    parts: z.array(z.object({ name: z.string(), size: z.int().min(0).max(9) })),
    meta: z.object({ ok: z.boolean() }),
  }),
  examples: [{ title: "Two", input: { numbers: ["1", "2"], mode: "b" }, output: NESTED }],
  handler: () => NESTED,
});
const flat = defineOperation({
  area: "demo",
  name: "flat",
  summary: "Flat",
  description: "A fixture without parameters.",
  input: z.object({}),
  output: z.object({ n: z.int() }),
  examples: [{ title: "Zero", input: {}, output: { n: 0 } }],
  handler: () => ({ n: 0 }),
});
const other = defineOperation({ ...flat, area: "other", name: "flat" });
const schema = buildGraphqlSchema([nested, flat, other]);

describe("selectAll", () => {
  it.each([
    ["DemoFlat", "{\n  n\n}"],
    ["DemoNestedSum", "{\n  total\n  parts {\n    name\n    size\n  }\n  meta {\n    ok\n  }\n}"],
  ])("%s", (type, selection) => {
    expect(selectAll(schema.getType(type) as GraphQLObjectType)).toBe(selection);
  });
});

describe("exampleQuery", () => {
  it.each([
    [
      "an example's arguments as literals, typed by the schema",
      [nested],
      /^{\n {2}demo {\n {4}nestedSum\(numbers: \["1", "2"\], mode: b\) {/,
    ],
    ["no arguments when the example gives none", [flat], /^{\n {2}demo {\n {4}flat {\n/],
    ["a second operation of an area aliased", [nested, flat], /\n {2}flat: demo {\n {4}flat {/],
    ["operations of other areas unaliased", [flat, other], /\n {2}other {\n {4}flat {/],
  ])("writes %s", (_case, operations, expected) => {
    expect(exampleQuery(schema, operations)).toMatch(expected);
  });

  it("writes a document the schema validates", () => {
    const document = parse(exampleQuery(schema, [nested, flat, other]));
    expect(validate(schema, document)).toEqual([]);
  });

  it("leaves out an operation the schema does not have", () => {
    expect(exampleQuery(buildGraphqlSchema([flat]), [flat, other])).toBe(
      "{\n  demo {\n    flat {\n      n\n    }\n  }\n}\n",
    );
  });
});
