#!/usr/bin/env node
/**
 * MCP over stdio for local agents: every operation as a tool, run in this process
 * without a key (whoever starts the process already has the machine). Stdout carries
 * only the protocol; faults go to stderr.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { execute } from "../core/runner.js";
import { loadOperations } from "../registry/loader.js";
import { mcpServer } from "./server.js";
import { createMcpTools } from "./tools.js";

async function main(): Promise<void> {
  const tools = createMcpTools(await loadOperations(), execute, (error) => {
    process.stderr.write(`unexpected fault: ${String((error as Error)?.stack ?? error)}\n`);
  });
  await mcpServer(tools).connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  process.stderr.write(`MCP server failed to start: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
