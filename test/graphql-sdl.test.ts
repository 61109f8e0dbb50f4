/**
 * The printed GraphQL schema, pinned: the registry's and the fixtures' SDL must match the
 * committed snapshots, so a change to how types are generated shows as a diff to review.
 * After a deliberate change (a new operation, say): `npx vitest run test/graphql-sdl.test.ts -u`.
 */
import { printSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { buildGraphqlSchema } from "../src/graphql/schema.js";
import { loadOperations, operationsDirs } from "../src/registry/loader.js";
import { SHAPES } from "./fixtures/graphql-shapes.js";

describe("the printed schema", () => {
  it.each([
    // operations/ alone: the OPERATIONS_DIRS of a test run do not change the snapshot.
    ["the registry's operations", "registry", () => loadOperations(operationsDirs())],
    ["the shape fixtures", "shapes", async () => SHAPES],
  ])("of %s matches its snapshot", async (_what, file, operations) => {
    const printed = printSchema(buildGraphqlSchema(await operations()));
    await expect(printed).toMatchFileSnapshot(`./__snapshots__/${file}.graphql`);
  });
});
