/**
 * The printed GraphQL schema of the shape fixtures, pinned by a snapshot generated from
 * the code before the Pothos types change: every way a zod schema maps to GraphQL, and
 * the odd cases, print as they did. The registry's own schema is pinned in
 * docs/graphql-schema.md (`npm run docs`; test/docs.test.ts fails when it is stale).
 * After a deliberate change: `npx vitest run test/graphql-sdl.test.ts -u`.
 */
import { printSchema } from "graphql";
import { expect, it } from "vitest";
import { buildGraphqlSchema } from "../src/graphql/schema.js";
import { SHAPES } from "./fixtures/graphql-shapes.js";

it("the shape fixtures' schema prints as its snapshot", async () => {
  const printed = printSchema(buildGraphqlSchema(SHAPES));
  await expect(printed).toMatchFileSnapshot("./__snapshots__/shapes.graphql");
});
