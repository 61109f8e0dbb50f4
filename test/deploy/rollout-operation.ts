/**
 * The "one more operation" of the rolling-update test: copied to
 * `operations/rollout/echo.ts` in a second image's build context (same depth, same imports).
 */
import { defineOperation, integer, z } from "../../src/kit/index.js";

export default defineOperation({
  area: "rollout",
  name: "echo",
  summary: "Echoes an integer back",
  description: "A deployment-test fixture: answers the integer it is given, doubled.",
  input: z.object({ n: integer({ min: 0, max: 100, description: "The integer." }) }),
  output: z.object({ n: z.int(), doubled: z.int() }),
  examples: [{ title: "21 doubled", input: { n: 21 }, output: { n: 21, doubled: 42 } }],
  handler: ({ n }) => ({ n, doubled: n * 2 }),
});
