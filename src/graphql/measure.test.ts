import { getOperationAST, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { measureDocument } from "./measure.js";

/** `depth` levels of fragments, each spreading the next twice: 2^depth fields once expanded. */
function doublingFragments(depth: number): string {
  const fragments = Array.from(
    { length: depth },
    (_, i) => `fragment F${i} on MathSum { ...F${i + 1} ...F${i + 1} }`,
  );
  return `{ math { sum(numbers: [1]) { ...F0 } } } ${fragments.join(" ")} fragment F${depth} on MathSum { decimal }`;
}

describe("measureDocument", () => {
  it.each([
    ["one operation field", "{ math { sum(numbers: [1]) { decimal } } }", 1, 3],
    [
      "aliases, each counted",
      "{ a: math { sum(numbers: [1]) { decimal } } b: math { sum(numbers: [2]) { decimal } } }",
      2,
      3,
    ],
    [
      "two operations under one area",
      "{ math { a: sum { decimal } b: subtract { result } } }",
      2,
      3,
    ],
    ["an area without operations", "{ math { __typename } }", 1, 2],
    ["a nested result", "{ fun { x { a { b { c } } } } }", 1, 5],
    ["introspection, neither counted nor measured", "{ __schema { types { name } } }", 0, 0, 1],
    [
      "__type beside an operation",
      '{ __type(name: "X") { name } math { sum { decimal } } }',
      1,
      3,
      1,
    ],
    [
      "introspection aliased and spread, each counted",
      '{ a: __schema { queryType { name } } ...I ...I } fragment I on Query { b: __type(name: "X") { name } }',
      0,
      0,
      3,
    ],
    [
      "an inline fragment, transparent",
      "{ math { ... on MathOperations { sum { decimal } } } }",
      1,
      3,
    ],
    [
      "a named fragment where it is spread",
      "{ math { ...Ops } } fragment Ops on MathOperations { sum { decimal } subtract { result } }",
      2,
      3,
    ],
    [
      "a fragment spread twice, counted twice",
      "{ a: math { ...Ops } b: math { ...Ops } } fragment Ops on MathOperations { sum { decimal } }",
      2,
      3,
    ],
    ["a spread of a missing fragment, empty", "{ math { ...Nowhere } }", 0, 1],
    [
      "a fragment cycle, empty where it loops",
      "{ math { ...A } } fragment A on MathOperations { sum { decimal } ...B } fragment B on MathOperations { ...A }",
      1,
      3,
    ],
    [
      "the largest operation of a document (a request runs one)",
      "query A { math { sum { decimal } } } query B { x { y { z { w } } } a: x { y { z } } }",
      2,
      4,
    ],
    [
      "introspection fields of the largest operation",
      'query A { __schema { types { name } } } query B { __type(name: "Query") { name } t: __type(name: "X") { name } }',
      0,
      0,
      2,
    ],
    ["no operation at all", "fragment F on Query { math { sum { decimal } } }", 0, 0],
  ])("%s", (_case, document, operationFields, depth, introspectionFields = 0) => {
    expect(measureDocument(parse(document))).toMatchObject({
      operationFields,
      depth,
      introspectionFields,
    });
  });

  it.each([
    ["no alias", "{ __schema { types { name fields { name } } } }", 0],
    ["aliased roots are counted apart, not here", '{ a: __type(name: "X") { name } }', 0],
    ["an alias inside", "{ __schema { t: types { name } } }", 1],
    [
      "aliases spread through fragments, each spread counted",
      "{ __schema { types { ...A ...A } } } fragment A on __Type { a: name b: kind }",
      4,
    ],
    ["aliases outside introspection do not count", "{ m: math { s: sum { decimal } } }", 0],
  ])("introspection aliases: %s", (_case, document, introspectionAliases) => {
    expect(measureDocument(parse(document)).introspectionAliases).toBe(introspectionAliases);
  });

  it.each([
    ["A", { operationFields: 1, depth: 3, introspectionFields: 1 }],
    ["B", { operationFields: 2, depth: 4, introspectionFields: 0 }],
  ])("measures the operation a request runs when given: %s", (name, expected) => {
    const document = parse(
      `query A { __schema { types { name } } math { sum { decimal } } }
       query B { ...F x { y { z { w } } } } fragment F on Query { math { sum { decimal } } }`,
    );
    const operation = getOperationAST(document, name) ?? undefined;
    expect(measureDocument(document, operation)).toMatchObject(expected);
  });

  it.each([
    ["every level counted", "{ math { sum(numbers: [1]) { decimal } } }", 3],
    ["aliases counted", "{ math { a: sum { decimal } b: sum { decimal result } } }", 6],
    [
      "a fragment counted each time it is spread",
      "{ math { a: sum { ...S } b: sum { ...S } } } fragment S on MathSum { x: decimal y: decimal }",
      7,
    ],
    ["introspection counted", "{ __schema { types { name } } }", 3],
    [
      "the largest operation of a document",
      "query A { math { sum { decimal } } } query B { x { y } }",
      3,
    ],
  ])("selected fields: %s", (_case, document, selectedFields) => {
    expect(measureDocument(parse(document)).selectedFields).toBe(selectedFields);
  });

  it("measures fragments that double at each level without expanding them", () => {
    const measure = measureDocument(parse(doublingFragments(40)));
    expect(measure).toMatchObject({ operationFields: 1, depth: 3, introspectionFields: 0 });
  });

  it("counts operation fields spread through doubling fragments as they expand", () => {
    const document = `{ ...Q0 } ${Array.from(
      { length: 10 },
      (_, i) => `fragment Q${i} on Query { ...Q${i + 1} ...Q${i + 1} }`,
    ).join(" ")} fragment Q10 on Query { math { sum { decimal } } }`;
    expect(measureDocument(parse(document))).toMatchObject({
      operationFields: 2 ** 10,
      depth: 3,
      introspectionFields: 0,
    });
  });
});
