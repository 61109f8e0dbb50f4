import SchemaBuilder from "@pothos/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Exact } from "../kit/decimal.js";
import { decimal, describeParam, integer, list, text } from "../kit/params.js";
import {
  type Builder,
  descriptionOf,
  graphqlDefault,
  type SchemaTypes,
  TypeFactory,
} from "./types.js";

function factory(): TypeFactory {
  const builder: Builder = new SchemaBuilder<SchemaTypes>({});
  return new TypeFactory(builder);
}

describe("descriptionOf", () => {
  it.each([
    ["none", z.string(), undefined],
    ["its own", z.string().describe("Own."), "Own."],
    ["through optional", z.string().describe("Inner.").optional(), "Inner."],
    ["the outermost first", z.string().describe("Inner.").optional().describe("Outer."), "Outer."],
    ["through default and nullable", z.int().describe("N.").nullable().default(1), "N."],
    ["through a pipe's input", z.string().describe("In.").pipe(z.string()), "In."],
    ["from .meta()", z.string().meta({ description: "Meta." }), "Meta."],
    ["of a decimal parameter", decimal({ description: "Amount." }), "Amount."],
  ])("%s", (_case, schema, expected) => {
    expect(descriptionOf(schema)).toBe(expected);
  });
});

describe("graphqlDefault", () => {
  it.each([
    ["no default", z.int(), undefined],
    ["an integer", z.int().min(0).max(9).default(3), { value: 3 }],
    ["an integer beyond Int, as SafeInt", integer().default(2 ** 40), { value: 2 ** 40 }],
    ["a boolean", z.boolean().default(false), { value: false }],
    ["a string", text({ max: 5 }).default("abc"), { value: "abc" }],
    ["an enum value", z.enum(["a", "b"]).default("b"), { value: "b" }],
    ["a list of integers", list(z.int(), { min: 0, max: 3 }).default([1, 2]), { value: [1, 2] }],
    // zod 4 defaults are output values: a decimal's is an Exact, not a literal a client sends.
    ["a decimal (an output value)", decimal().default(new Exact("1")), undefined],
    ["an integer default out of its bounds", z.int().max(5).default(9), undefined],
    ["a string default too long", text({ max: 2 }).default("abc"), undefined],
  ])("%s", (_case, schema, expected) => {
    expect(graphqlDefault(schema, describeParam(schema))).toEqual(expected);
  });
});

describe("TypeFactory.input", () => {
  it.each([
    ["decimal", decimal(), "Decimal"],
    ["integer within 32 bits", integer({ min: 0, max: 100 }), "Int"],
    ["integer beyond 32 bits", integer(), "SafeInt"],
    ["boolean", z.boolean(), "Boolean"],
    ["string", text({ max: 9 }), "String"],
    ["enum of names that cannot be GraphQL names", z.enum(["a-b", "c"]), "String"],
    ["list of decimals", list(decimal(), { min: 1, max: 2 }), ["Decimal"]],
    ["list of wide integers", list(integer(), { min: 1, max: 2 }), ["SafeInt"]],
  ])("%s → %j", (_case, schema, expected) => {
    expect(factory().input(describeParam(schema), "Name")).toEqual(expected);
  });

  it("makes an enum of valid names a generated enum", () => {
    const type = factory().input(describeParam(z.enum(["up", "down"])), "Direction");
    expect(type).toMatchObject({ kind: "Enum", name: "Direction" });
  });
});

describe("TypeFactory.output", () => {
  it.each([
    ["a string", z.string(), "String", false],
    ["a nullable int", z.int().min(0).max(1).nullable(), "Int", true],
    ["an optional wide int", z.int().optional(), "SafeInt", true],
    ["a float behind default and readonly", z.number().default(1).readonly(), "Float", false],
    ["a pipe's output", z.any().pipe(z.boolean()), "Boolean", false],
    [
      "a list with nullable items",
      z.array(z.string().nullable()),
      ["String"],
      { list: false, items: true },
    ],
    ["a nullable list", z.array(z.boolean()).nullable(), ["Boolean"], { list: true, items: false }],
    ["a literal number beyond Int", z.literal(2 ** 31), "Float", false],
    ["a literal string", z.literal("x"), "String", false],
  ])("%s", (_case, schema, type, nullable) => {
    expect(factory().output(schema, "Name", "area/op")).toEqual({ type, nullable });
  });

  it.each([
    ["a list of lists", z.array(z.array(z.string())), /area\/op: lists of lists/],
    ["a union", z.union([z.string(), z.int()]), /area\/op: a zod 'union'/],
    ["a record", z.record(z.string(), z.int()), /area\/op: a zod 'record'/],
    ["mixed literals", z.literal(["a", 1]), /area\/op: a zod 'literal'/],
  ])("refuses %s, naming where", (_case, schema, message) => {
    expect(() => factory().output(schema, "Name", "area/op")).toThrow(message);
  });
});

describe("TypeFactory names", () => {
  it("numbers a name asked for again, and never takes the built-in ones", () => {
    const types = factory();
    expect(
      ["Result", "Result", "Result", "Query", "Decimal"].map((n) => types.uniqueName(n)),
    ).toEqual(["Result", "Result2", "Result3", "Query2", "Decimal2"]);
  });

  it("shares an enum asked for again with the same values, numbers one with others", () => {
    const types = factory();
    const first = types.enumOrString("Mode", ["fast", "slow"]);
    expect(types.enumOrString("Mode", ["fast", "slow"])).toBe(first);
    expect(types.enumOrString("Mode", ["on", "off"])).toMatchObject({ name: "Mode2" });
  });
});
