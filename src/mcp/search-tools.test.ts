import { describe, expect, it } from "vitest";
import { execute } from "../core/runner.js";
import { loadOperations } from "../registry/loader.js";
import { CALL_TOOL, listable, SEARCH_TOOLS, withToolSearch } from "./search-tools.js";
import { createMcpTools } from "./tools.js";

const tools = createMcpTools(await loadOperations(), execute, () => {});
const count = tools.list.tools.length;

describe("the search pair", () => {
  it("replaces a list past the threshold only (0: never)", () => {
    expect(listable(tools, count)).toBe(tools);
    expect(listable(tools, 0)).toBe(tools);
    expect(listable(tools, count - 1).list.tools.map((tool) => tool.name)).toEqual([
      SEARCH_TOOLS,
      CALL_TOOL,
    ]);
  });

  it("ranks name matches above description matches", () => {
    const found = withToolSearch(tools).call(SEARCH_TOOLS, { query: "sum" });
    const names = (
      found?.structuredContent as { tools: { name: string }[] } | undefined
    )?.tools.map((tool) => tool.name);
    expect(names?.[0]).toBe("math_sum");
  });

  it("counts and attributes a call_tool as the call it makes", () => {
    const pair = withToolSearch(tools);
    const args = { name: "math_sum", arguments: { numbers: ["1", "2"] } };
    expect(pair.operationOf(CALL_TOOL, args)).toBe(tools.operationOf("math_sum"));
    expect(pair.costOf(CALL_TOOL, args)).toEqual(tools.costOf("math_sum", args.arguments));
    expect(pair.operationOf(SEARCH_TOOLS, { query: "x" })).toBeUndefined();
  });

  it("narrows to the tools kept, the pair still in front", () => {
    const narrowed = withToolSearch(tools).narrow((operation) => operation.area === "hash");
    expect(narrowed.list.tools.map((tool) => tool.name)).toEqual([SEARCH_TOOLS, CALL_TOOL]);
    const found = narrowed.call(SEARCH_TOOLS, { query: "md5" });
    expect((found?.structuredContent as { total: number } | undefined)?.total).toBe(1);
  });
});
