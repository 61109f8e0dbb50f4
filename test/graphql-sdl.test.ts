/**
 * The printed GraphQL schema, pinned against snapshots generated from the code before
 * the Pothos types change. The fixtures' SDL must match exactly. The registry's may only
 * grow: every type, field, argument and description in its snapshot must print as it
 * did and keep its order, while a new operation adds fields and types without an edit
 * here (as the contract allows more, never less). After a deliberate change to existing
 * types: `npx vitest run test/graphql-sdl.test.ts -u`.
 */
import { readFile } from "node:fs/promises";
import { type DefinitionNode, type DocumentNode, Kind, parse, print, printSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { buildGraphqlSchema } from "../src/graphql/schema.js";
import { loadOperations, operationsDirs } from "../src/registry/loader.js";
import { SHAPES } from "./fixtures/graphql-shapes.js";

const REGISTRY_SNAPSHOT = new URL("./__snapshots__/registry.graphql", import.meta.url);

/** Named definitions of an SDL document, by name. */
function definitions(document: DocumentNode): Map<string, DefinitionNode> {
  const named = new Map<string, DefinitionNode>();
  for (const definition of document.definitions)
    if ("name" in definition && definition.name) named.set(definition.name.value, definition);
  return named;
}

/**
 * What of `pinned` differs in `current`, one line a difference: a definition missing or
 * printed otherwise; for object types, a pinned field missing, printed otherwise or out
 * of order, while fields `current` adds are allowed.
 */
function departures(pinned: DocumentNode, current: DocumentNode): string[] {
  const now = definitions(current);
  const found: string[] = [];
  for (const [name, before] of definitions(pinned)) {
    const after = now.get(name);
    if (!after) {
      found.push(`${name}: gone`);
    } else if (before.kind === Kind.OBJECT_TYPE_DEFINITION && after.kind === before.kind) {
      if (print({ ...before, fields: [] }) !== print({ ...after, fields: [] }))
        found.push(`${name}: its description or kind changed`);
      const kept = new Set(before.fields?.map((field) => field.name.value));
      const fields = (after.fields ?? []).filter((field) => kept.has(field.name.value));
      const printed = new Map(fields.map((field) => [field.name.value, print(field)]));
      for (const field of before.fields ?? []) {
        const was = print(field);
        const is = printed.get(field.name.value);
        if (is !== was) found.push(`${name}.${field.name.value}: ${is ? "changed" : "gone"}`);
      }
      const order = (list: readonly { name: { value: string } }[]) =>
        list.map((field) => field.name.value).join(",");
      const still = (before.fields ?? []).filter((field) => printed.has(field.name.value));
      if (order(fields) !== order(still)) found.push(`${name}: fields reordered`);
    } else if (print(before) !== print(after)) {
      found.push(`${name}: changed`);
    }
  }
  return found;
}

describe("the printed schema", () => {
  it("of the shape fixtures matches its snapshot exactly", async () => {
    const printed = printSchema(buildGraphqlSchema(SHAPES));
    await expect(printed).toMatchFileSnapshot("./__snapshots__/shapes.graphql");
  });

  it("of the registry keeps every type and field of its snapshot, as printed there", async () => {
    // operations/ alone: the OPERATIONS_DIRS of a test run do not count.
    const current = parse(printSchema(buildGraphqlSchema(await loadOperations(operationsDirs()))));
    const pinned = parse(await readFile(REGISTRY_SNAPSHOT, "utf8"));
    expect(departures(pinned, current)).toEqual([]);
  });

  it.each([
    ["a field added", "type A { x: Int }", "type A { x: Int y: Int } type B { z: Int }", []],
    ["a field gone", "type A { x: Int y: Int }", "type A { x: Int }", ["A.y: gone"]],
    ["a type gone", "type A { x: Int } enum E { a }", "type A { x: Int }", ["E: gone"]],
    ["a field's type", "type A { x: Int }", "type A { x: Int! }", ["A.x: changed"]],
    [
      "an argument's default",
      "type A { x(a: Int = 1): Int }",
      "type A { x(a: Int = 2): Int }",
      ["A.x: changed"],
    ],
    [
      "a field's description",
      'type A { "one" x: Int }',
      'type A { "two" x: Int }',
      ["A.x: changed"],
    ],
    [
      "a type's description",
      '"one" type A { x: Int }',
      '"two" type A { x: Int }',
      ["A: its description or kind changed"],
    ],
    [
      "field order",
      "type A { x: Int y: Int }",
      "type A { y: Int x: Int }",
      ["A: fields reordered"],
    ],
    ["an enum value added", "enum E { a }", "enum E { a b }", ["E: changed"]],
  ])("tells departures from a snapshot: %s", (_case, pinned, current, expected) => {
    expect(departures(parse(pinned), parse(current))).toEqual(expected);
  });
});
