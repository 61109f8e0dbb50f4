/** MCP test support: the SDK's own client over Streamable HTTP or stdio, and tool results. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AnyOperation } from "../src/kit/define.js";
import type { Problem } from "../src/kit/errors.js";
import { toolNameOf } from "../src/mcp/tools.js";

/** A client connected to `POST <origin>/mcp`, sending `key` (none when undefined). */
export async function httpClient(
  origin: string,
  key: string | undefined,
  extraHeaders: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: "ucs-tests", version: "1.0.0" });
  const headers: Record<string, string> = {
    ...extraHeaders,
    ...(key === undefined ? {} : { "x-api-key": key }),
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

/** A client of `node --import tsx src/mcp/stdio.ts`, started in `cwd`. */
export async function stdioClient(cwd: string, env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "ucs-tests", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", "src/mcp/stdio.ts"],
      cwd,
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: "pipe",
    }),
  );
  return client;
}

/** Calls the operation's tool with `args`. */
export async function callOperation(
  client: Client,
  operation: AnyOperation,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({
    name: toolNameOf(operation),
    arguments: args,
  })) as CallToolResult;
}

/** The JSON in a tool result's first text content. */
export function textJson(result: CallToolResult): unknown {
  const first = result.content[0];
  if (first?.type !== "text") throw new Error(`no text content: ${JSON.stringify(result)}`);
  return JSON.parse(first.text);
}

/** REST's 422 problems as a tool call reports them: `loc` from `arguments`, not `query`. */
export function asToolProblems(detail: Problem[]): Problem[] {
  return detail.map((problem) => ({ ...problem, loc: ["arguments", ...problem.loc.slice(1)] }));
}
