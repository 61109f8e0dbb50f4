import { buildSchema, parse } from "graphql";
import { compileQuery } from "graphql-jit";
import { describe, expect, it } from "vitest";
import { fullCollection } from "../runtime/internals.js";

const schema = buildSchema(
  "type R { decimal: String result: Float } type M { sum(n: String): R } type Query { math: M }",
);

/** A document of 50 aliased fields whose names no other document shares. */
const documentNumbered = (i: number) =>
  parse(
    `{ ${Array.from({ length: 50 }, (_, j) => `a${i}_${j}: math { sum(n: "1") { decimal result } }`).join(" ")} }`,
  );

describe("graphql-jit", () => {
  // graphql-jit 0.8.7 memoised every compiled field's origin path for good (its issue #287):
  // a client sending distinct documents ran the 128 MB heap out in ~790 documents of 100 fields.
  it("keeps nothing of the documents it compiled once they are gone", () => {
    const collect = fullCollection();
    // Warm up: graphql-jit's and V8's one-time allocations are not what is measured.
    for (let i = 0; i < 10; i++) compileQuery(schema, documentNumbered(1000 + i));
    collect(true);
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 150; i++) compileQuery(schema, documentNumbered(i));
    collect(true);
    const kept = process.memoryUsage().heapUsed - before;
    // 0.8.7 kept ~28 KB per document of 50 fields: ~4 MB here.
    expect(kept).toBeLessThan(1_500_000);
  });
});
