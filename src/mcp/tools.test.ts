import { describe, expect, it, vi } from "vitest";
import { execute } from "../core/runner.js";
import { defineOperation, z } from "../kit/index.js";

// Counts the JSON Schema conversions, to tell when the tools' schemas are made.
const conversions = vi.hoisted(() => ({ count: 0 }));
vi.mock("../core/json-schema.js", async (original) => {
  const actual = await original<typeof import("../core/json-schema.js")>();
  return {
    ...actual,
    jsonSchema: (...args: Parameters<typeof actual.jsonSchema>) => {
      conversions.count++;
      return actual.jsonSchema(...args);
    },
  };
});

const { createMcpTools } = await import("./tools.js");

const echo = defineOperation({
  area: "ext",
  name: "echo",
  summary: "Echo",
  description: "Answers its text.",
  input: z.object({ text: z.string() }),
  output: z.object({ text: z.string() }),
  examples: [{ title: "hi", input: { text: "hi" }, output: { text: "hi" } }],
  handler: ({ text }) => ({ text }),
});

describe("createMcpTools", () => {
  it("makes the tools' JSON Schemas when tools/list is first read, once", () => {
    conversions.count = 0;
    const tools = createMcpTools([echo], execute, () => {});
    expect(conversions.count).toBe(0);
    const list = tools.list;
    expect(list.tools.map((tool) => tool.name)).toContain("ext_echo");
    const made = conversions.count;
    expect(made).toBeGreaterThan(0);
    expect(tools.list).toBe(list);
    expect(conversions.count).toBe(made);
  });

  it("calls a tool before any list is made, with its structured answer", () => {
    const tools = createMcpTools([echo], execute, () => {});
    expect(tools.call("ext_echo", { text: "hi" })).toEqual({
      content: [{ type: "text", text: '{"text":"hi"}' }],
      structuredContent: { text: "hi" },
    });
    expect(tools.narrow((operation) => operation === echo, false).list.tools).toHaveLength(1);
  });
});
