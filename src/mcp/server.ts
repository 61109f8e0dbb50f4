/**
 * The SDK's MCP server around the registry's tools (`tools.ts`): what the transports
 * connect to. The only module of the surface that loads the SDK's server, so a service
 * process imports it on its first `/mcp` request and not before.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { safeParse } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type ListToolsResult,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
import { sdkRequestHandlers } from "../runtime/internals.js";
import { VERSION } from "../version.js";
import type { McpTools } from "./tools.js";

const INSTRUCTIONS =
  "Exact calculations: each tool is one operation of the Utility Calculation Service. " +
  'Give decimals as JSON strings ("0.1") to keep every digit; numbers are accepted too. ' +
  'An invalid call answers isError with {"detail": [...]}: every problem, Pydantic style.';

// The SDK builds an Ajv instance per server unless given one (it is used only to check
// elicitation answers, which these tools never ask for): one for every server.
let jsonSchemaValidator: AjvJsonSchemaValidator | undefined;

interface Handlers {
  list(): ListToolsResult;
  call(request: { params: { name: string; arguments?: Record<string, unknown> } }): CallToolResult;
}

/**
 * `tools/call` as the SDK's protocol layer sees it: any params. The SDK checks its handler's
 * request with the full schema itself and answers a bad one "Invalid params" (-32602);
 * given the full schema here, its protocol layer would throw first, and a call without
 * params would be answered "Internal error" (-32603).
 */
const CALL_TOOL_REQUEST = CallToolRequestSchema.extend({ params: z.unknown().optional() });

/** The request handlers of each set of tools, made once, not per server. */
const handlers = new WeakMap<McpTools, Handlers>();

function handlersOf(tools: McpTools): Handlers {
  let made = handlers.get(tools);
  if (made === undefined) {
    made = {
      list: () => tools.list,
      call: ({ params }) => {
        const result = tools.call(params.name, params.arguments);
        if (result === undefined) {
          throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
        }
        return result;
      },
    };
    handlers.set(tools, made);
  }
  return made;
}

/**
 * A server answering `tools/list` and `tools/call` with `tools`; connect it to one
 * transport (stdio's, or the HTTP exchange of `exchange.ts`, which serves every request).
 * `listChanged`: whether it will send `notifications/tools/list_changed` (stdio, after a
 * reload); stateless HTTP has no stream to send one on, so it says false there.
 *
 * @example
 * await mcpServer(createMcpTools(operations, execute, onFault)).connect(new StdioServerTransport());
 */
export function mcpServer(tools: McpTools, { listChanged = false } = {}): Server {
  jsonSchemaValidator ??= new AjvJsonSchemaValidator();
  const server = new Server(
    { name: "utility-calculation-service", version: VERSION },
    {
      capabilities: { tools: { listChanged } },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator,
    },
  );
  const { list, call } = handlersOf(tools);
  server.setRequestHandler(ListToolsRequestSchema, list);
  server.setRequestHandler(CALL_TOOL_REQUEST, call as never);
  answerPlainCallsDirectly(server, call);
  return server;
}

type CallRequest = Parameters<Handlers["call"]>[0];

/** An object made by a literal or `JSON.parse` (or without a prototype), not an array. */
const isPlainObject = (value: unknown): boolean => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/**
 * Whether `params` of a `tools/call` are ones the SDK's `CallToolRequestSchema` certainly
 * accepts, as they are: an object with a string `name` and, if any, `arguments` that are a
 * plain object, without `_meta` or `task` (whose shapes the schema checks). Anything else
 * goes to the schema.
 *
 * @example
 * isPlainCall({ name: "math_sum", arguments: { numbers: ["1"] } }); // true
 */
export function isPlainCall(params: unknown): params is CallRequest["params"] {
  if (typeof params !== "object" || params === null || Array.isArray(params)) return false;
  if ("_meta" in params || "task" in params) return false;
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== "string") return false;
  if (args === undefined) return !("arguments" in params);
  return isPlainObject(args);
}

/**
 * The SDK checks every `tools/call` twice with zod, around its handler: the request with
 * its full schema, then the result (three parses, and a promise each way: most of what a
 * call costs the server). A call whose params {@link isPlainCall} vouches for is handed to
 * the handler at once, inside the SDK's own request handling (`_onrequest`: its ids,
 * errors and response); its result, made by `tools.ts` in the result schema's shape and
 * key order (the tests check it for every tool), is checked by hand ({@link isPlainResult})
 * and otherwise by the SDK's schema. Any other call takes the SDK's checks.
 */
function answerPlainCallsDirectly(server: Server, call: Handlers["call"]): void {
  const handlers = sdkRequestHandlers<{ params?: unknown }>(server);
  const checked = handlers?.get("tools/call");
  if (handlers === undefined || checked === undefined) return;
  handlers.set("tools/call", (request, extra) => {
    if (!isPlainCall(request.params)) return checked(request, extra);
    const result = call(request as CallRequest);
    return isPlainResult(result) ? result : checkedResult(result);
  });
}

/**
 * Whether `result` is one the SDK's `CallToolResultSchema` certainly parses to itself, key
 * for key: text content items only, `structuredContent` a plain object, `isError` a boolean,
 * nothing else. What the tools make always is (a handler answering, say, undefined as text
 * is not); anything else takes the SDK's own result check.
 */
export function isPlainResult(result: CallToolResult): boolean {
  for (const key in result) {
    if (key !== "content" && key !== "structuredContent" && key !== "isError") return false;
  }
  const { content, structuredContent, isError } = result;
  if (!Array.isArray(content)) return false;
  for (const item of content) {
    if (!isPlainObject(item) || item.type !== "text" || typeof item.text !== "string") return false;
    for (const key in item) if (key !== "type" && key !== "text") return false;
  }
  if (structuredContent !== undefined && !isPlainObject(structuredContent)) return false;
  return isError === undefined || typeof isError === "boolean";
}

/** The SDK's own check of a result, with its error (`Server.setRequestHandler`'s). */
function checkedResult(result: CallToolResult): CallToolResult {
  const parsed = safeParse(CallToolResultSchema, result);
  if (!parsed.success) {
    const message = parsed.error instanceof Error ? parsed.error.message : String(parsed.error);
    throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${message}`);
  }
  return parsed.data;
}
