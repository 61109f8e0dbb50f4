import { CallToolRequestSchema, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allOperations } from "../../test/helpers.js";
import { execute } from "../core/runner.js";
import { defineOperation, z } from "../kit/index.js";
import { sdkRequestHandlers } from "../runtime/internals.js";
import { RECIPE_TOOL_NAME } from "./recipe-tool.js";
import { CALL_TOOL, SEARCH_TOOLS, withToolSearch } from "./search-tools.js";
import { isPlainCall, isPlainResult, mcpServer } from "./server.js";
import { createMcpTools, toolNameOf } from "./tools.js";

const operations = await allOperations();
const tools = createMcpTools(operations, execute, () => {});

const callOf = (params: unknown) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params });

describe("isPlainCall", () => {
  it.each([
    ["a name and arguments", { name: "math_sum", arguments: { numbers: ["1"] } }, true],
    ["a name alone", { name: "math_sum" }, true],
    ["other keys beside them (the schema ignores them)", { name: "x", other: 1 }, true],
    ["no name", { arguments: {} }, false],
    ["a name that is not a string", { name: 1 }, false],
    ["arguments that are a list", { name: "x", arguments: [1] }, false],
    ["arguments null", { name: "x", arguments: null }, false],
    ["arguments that are a string", { name: "x", arguments: "a" }, false],
    ["_meta (its shape is the schema's to check)", { name: "x", _meta: {} }, false],
    ["a task (its shape is the schema's to check)", { name: "x", task: {} }, false],
    ["params that are a list", [], false],
    ["no params", undefined, false],
  ])("%s: %s", (_case, params, plain) => {
    expect(isPlainCall(params)).toBe(plain);
  });

  it("vouches only for calls the SDK's CallToolRequestSchema accepts", () => {
    const params = fc.oneof(
      fc.jsonValue(),
      fc.record(
        { name: fc.oneof(fc.string(), fc.jsonValue()), arguments: fc.jsonValue() },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(params, (value) => {
        const parsed = JSON.parse(JSON.stringify(value ?? null)) as unknown;
        if (isPlainCall(parsed)) {
          expect(CallToolRequestSchema.safeParse(callOf(parsed)).success).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the server's tools/call", () => {
  const handler = sdkRequestHandlers<unknown>(mcpServer(tools))?.get("tools/call");

  it("answers a plain call at once, past the SDK's zod checks", () => {
    const answer = handler?.(callOf({ name: "math_sum", arguments: { numbers: ["1", "2"] } }), {});
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toMatchObject({ structuredContent: { decimal: "3" } });
  });

  it("leaves any other call to the SDK's checks", async () => {
    const answer = handler?.(callOf({ name: "math_sum", arguments: [1] }), {});
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).rejects.toThrow(/Invalid tools\/call request/);
  });
});

describe("a result the tools make outside the result schema", () => {
  // An operator's module may declare an output a text content cannot carry (undefined).
  const nothing = defineOperation({
    area: "ext",
    name: "nothing",
    summary: "Nothing",
    description: "Answers nothing at all.",
    input: z.object({}),
    output: z.string().optional(),
    examples: [{ title: "none", input: {}, output: undefined }],
    handler: () => undefined,
  });
  const handler = sdkRequestHandlers<unknown>(
    mcpServer(createMcpTools([nothing], execute, () => {})),
  )?.get("tools/call");

  it("is refused as the SDK's own result check refuses it", async () => {
    const plain = callOf({ name: "ext_nothing", arguments: {} });
    const viaSdk = callOf({ name: "ext_nothing", arguments: {}, _meta: {} });
    const sdkError = await (async () => handler?.(viaSdk, {}))().catch((error: Error) => error);
    const ownError = await (async () => handler?.(plain, {}))().catch((error: Error) => error);
    expect(sdkError).toBeInstanceOf(Error);
    expect((sdkError as Error).message).toMatch(/Invalid tools\/call result/);
    expect(ownError).toEqual(sdkError);
    expect((ownError as { code?: number }).code).toBe((sdkError as { code?: number }).code);
  });

  it("is told apart by isPlainResult", () => {
    expect(isPlainResult({ content: [{ type: "text", text: "1" }] })).toBe(true);
    expect(isPlainResult({ content: [{ type: "text" }] } as never)).toBe(false);
    expect(isPlainResult({ content: [{ type: "text", text: "1", extra: 1 }] } as never)).toBe(
      false,
    );
    expect(isPlainResult({ content: [], structuredContent: [] as never })).toBe(false);
    expect(isPlainResult({ content: [], isError: "yes" } as never)).toBe(false);
    expect(isPlainResult({ content: [], _meta: {} })).toBe(false);
  });
});

describe("every tool result", () => {
  // What the SDK's result check would answer for it, byte for byte: plain calls skip it.
  const asChecked = (result: unknown) => JSON.stringify(CallToolResultSchema.parse(result));
  const searching = withToolSearch(tools);

  it("is already what the SDK's result schema parses it to, for every example", () => {
    for (const operation of operations) {
      for (const example of operation.examples) {
        const result = tools.call(toolNameOf(operation), example.input);
        expect(JSON.stringify(result), toolNameOf(operation)).toBe(asChecked(result));
      }
    }
  });

  it.each([
    ["invalid arguments", () => tools.call("math_sum", { numbers: ["x"], extra: 1 })],
    ["a failing calculation", () => tools.call("math_percent_change", { from: "0", to: "1" })],
    ["a recipe", () => tools.call(RECIPE_TOOL_NAME, { steps: [] })],
    ["a search", () => searching.call(SEARCH_TOOLS, { query: "sum" })],
    ["a search refused", () => searching.call(SEARCH_TOOLS, {})],
    ["a call_tool of an unknown tool", () => searching.call(CALL_TOOL, { name: "nope" })],
  ])("is so for %s too", (_case, call) => {
    const result = call();
    expect(result).toBeDefined();
    expect(JSON.stringify(result)).toBe(asChecked(result));
  });
});
