/**
 * The SDK's MCP server around the registry's tools (`tools.ts`): what the transports
 * connect to. The only module of the surface that loads the SDK's server, so a service
 * process imports it on its first `/mcp` request and not before.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  type ListToolsResult,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
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
  return server;
}
