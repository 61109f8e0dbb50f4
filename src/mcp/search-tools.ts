/**
 * Two tools in place of a large catalogue: `search_tools` finds tools by words and answers
 * their full definitions, `call_tool` calls one by name. Clients cap or degrade with many
 * tools (Cursor takes the first 40, VS Code refuses more than 128, others switch to their
 * own search past ~30), and a 50-tool list spends an agent's context before any call. The
 * tools stay callable by their own names too. Wraps any {@link McpTools}, so the pair
 * searches and calls exactly the tools of its set and its key's scopes.
 */
import type { CallToolResult, ListToolsResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Spent } from "../core/budget.js";
import { errorResult, type McpTools } from "./tools.js";

export const SEARCH_TOOLS = "search_tools";
export const CALL_TOOL = "call_tool";

/**
 * Tools a set may list before `/mcp` lists the pair instead (`MCP_TOOL_SEARCH_THRESHOLD`):
 * 40, the most every client named above takes whole, and under which an agent's context
 * is not yet dominated by the list.
 */
export const DEFAULT_TOOL_SEARCH_THRESHOLD = 40;

/** Tools one search answers at most, and by default. */
export const MAX_SEARCH_RESULTS = 50;
const DEFAULT_SEARCH_RESULTS = 10;
/** The longest query, and the most words of it that count. */
const MAX_QUERY_LENGTH = 200;
const MAX_QUERY_WORDS = 20;

const SEARCH_TOOL: Tool = {
  name: SEARCH_TOOLS,
  title: "Search the calculation tools",
  description:
    "Finds the service's calculation tools by words (e.g. 'sum', 'checksum md5', 'leap year') " +
    "and answers each match's name, title, description and input and output schemas, best " +
    "match first. Call a tool found with call_tool (or by its name).",
  inputSchema: {
    type: "object",
    properties: {
      query: {
        type: "string",
        minLength: 1,
        maxLength: MAX_QUERY_LENGTH,
        description: "Words to look for in the tools' names, titles and descriptions.",
      },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: MAX_SEARCH_RESULTS,
        default: DEFAULT_SEARCH_RESULTS,
        description: "The most tools to answer.",
      },
    },
    required: ["query"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      tools: {
        type: "array",
        description: "The matching tools, best first, as tools/list would list them.",
        items: { type: "object" },
      },
      total: { type: "integer", description: "How many tools match, all told." },
    },
    required: ["tools", "total"],
  },
  annotations: {
    title: "Search the calculation tools",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

const CALL_TOOL_TOOL: Tool = {
  name: CALL_TOOL,
  title: "Call a calculation tool",
  description:
    "Calls one of the tools search_tools finds, by name, with its arguments (an object " +
    "following the tool's inputSchema); answers what that tool answers.",
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", minLength: 1, description: "The tool's name, from search_tools." },
      arguments: { type: "object", description: "The tool's arguments." },
    },
    required: ["name"],
    additionalProperties: false,
  },
  annotations: {
    title: "Call a calculation tool",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
};

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The tool and arguments a `call_tool` names, or undefined when they are not usable. */
function target(args: unknown): { name: string; args: JsonObject | undefined } | undefined {
  if (!isObject(args) || typeof args.name !== "string") return undefined;
  const inner = args.arguments;
  if (inner !== undefined && !isObject(inner)) return undefined;
  return { name: args.name, args: inner };
}

/** The lower-case words of `text`. */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

function refused(message: string): CallToolResult {
  return errorResult([{ loc: ["arguments"], msg: message, type: "value_error" }]);
}

/**
 * `tools` behind the pair: `tools/list` answers `search_tools` and `call_tool`; calls of
 * either, or of any tool by its own name, are answered from `tools`.
 */
export function withToolSearch(tools: McpTools): McpTools {
  const all = tools.list.tools;
  for (const name of [SEARCH_TOOLS, CALL_TOOL]) {
    if (tools.operationOf(name) !== undefined) {
      throw new Error(`MCP tool name '${name}' is taken by an operation; rename the operation`);
    }
  }
  const list: ListToolsResult = { tools: [SEARCH_TOOL, CALL_TOOL_TOOL] };
  // What each tool is searched by, made once: its name, its name's words, its text's words.
  const names = all.map((tool) => tool.name.toLowerCase());
  const nameWords = names.map((name) => new Set(name.split("_")));
  const textWords = all.map(
    (tool) => new Set(wordsOf(`${tool.title ?? ""} ${tool.description ?? ""}`)),
  );
  const listBytes = Buffer.byteLength(JSON.stringify(all));

  function search(args: JsonObject): CallToolResult {
    const { query, limit = DEFAULT_SEARCH_RESULTS } = args;
    for (const name in args) {
      if (name !== "query" && name !== "limit") return refused(`unknown argument '${name}'`);
    }
    if (typeof query !== "string" || query.length === 0 || query.length > MAX_QUERY_LENGTH) {
      return refused(`query must be a string of 1 to ${MAX_QUERY_LENGTH} characters`);
    }
    if (
      !Number.isInteger(limit) ||
      (limit as number) < 1 ||
      (limit as number) > MAX_SEARCH_RESULTS
    ) {
      return refused(`limit must be an integer from 1 to ${MAX_SEARCH_RESULTS}`);
    }
    const words = wordsOf(query).slice(0, MAX_QUERY_WORDS);
    const scored: { index: number; score: number }[] = [];
    for (let index = 0; index < all.length; index++) {
      let score = 0;
      // A word of the name counts most, then a part of it ("sum" in "checksum"), then the text.
      for (const word of words) {
        if (nameWords[index]?.has(word)) score += 4;
        else if (names[index]?.includes(word)) score += 2;
        if (textWords[index]?.has(word)) score += 1;
      }
      if (score > 0) scored.push({ index, score });
    }
    // Best first; equal scores keep the list's order.
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    const body = {
      tools: scored.slice(0, limit as number).map(({ index }) => all[index]),
      total: scored.length,
    };
    return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
  }

  function call(name: string, args: JsonObject | undefined): CallToolResult | undefined {
    if (name === SEARCH_TOOLS) return search(args ?? {});
    if (name !== CALL_TOOL) return tools.call(name, args);
    const called = target(args);
    if (called === undefined) {
      return refused("call_tool takes a tool 'name' (a string) and its 'arguments' (an object)");
    }
    return (
      tools.call(called.name, called.args) ??
      errorResult(`Unknown tool: ${called.name} (search_tools lists the tools there are)`)
    );
  }

  function costOf(name: unknown, args: unknown): Spent | undefined {
    // A search answers at most every definition: its bytes bound the answer's.
    if (name === SEARCH_TOOLS) return { work: listBytes * 10, bytes: listBytes * 2 };
    if (name !== CALL_TOOL) return tools.costOf(name, args);
    const called = target(args);
    return called && tools.costOf(called.name, called.args ?? {});
  }

  function operationOf(name: unknown, args?: unknown) {
    if (name !== CALL_TOOL) return tools.operationOf(name, args);
    const called = target(args);
    return called && tools.operationOf(called.name);
  }

  function recipeCharge(name: unknown, args: unknown) {
    if (name !== CALL_TOOL) return tools.recipeCharge(name, args);
    const called = target(args);
    return called && tools.recipeCharge(called.name, called.args ?? {});
  }

  return {
    list,
    call,
    costOf,
    narrow: (keep, recipes) => withToolSearch(tools.narrow(keep, recipes)),
    operationOf,
    recipeCharge,
  };
}

/** `tools` as a set of `threshold` tools at most lists them: the pair past it (0: never). */
export function listable(tools: McpTools, threshold: number): McpTools {
  return threshold > 0 && tools.list.tools.length > threshold ? withToolSearch(tools) : tools;
}
