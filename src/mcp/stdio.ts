#!/usr/bin/env node
/**
 * MCP over stdio for local agents: every operation as a tool, run in this process
 * without a key (whoever starts the process already has the machine). Stdout carries
 * only the protocol; faults go to stderr. `OPERATIONS_DIRS` adds operator folders, as for
 * the service; SIGHUP loads the operations afresh and, when the tool list changed, tells
 * the client (`notifications/tools/list_changed`), so it lists the tools again.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { execute } from "../core/runner.js";
import { loadOperations, operationsDirs } from "../registry/loader.js";
import { DEFAULT_TOOL_SEARCH_THRESHOLD, listable } from "./search-tools.js";
import { mcpServer } from "./server.js";
import { createMcpTools, type McpTools } from "./tools.js";

const log = (line: string) => process.stderr.write(`${line}\n`);

/** A comma-separated list of the environment, as the service's configuration reads it. */
function listOf(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** `MCP_TOOL_SEARCH_THRESHOLD`, as the service reads it; the default when unset or invalid. */
function thresholdOf(value: string | undefined): number {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : DEFAULT_TOOL_SEARCH_THRESHOLD;
}

/**
 * Tools that are always those of the latest load: the server keeps this one object, and a
 * reload replaces what it answers with.
 */
function swappable(initial: McpTools): { tools: McpTools; swap(next: McpTools): boolean } {
  let current = initial;
  let listed = JSON.stringify(current.list);
  const tools: McpTools = {
    get list() {
      return current.list;
    },
    call: (name, args) => current.call(name, args),
    costOf: (name, args) => current.costOf(name, args),
    narrow: (keep, recipes) => current.narrow(keep, recipes),
    operationOf: (name, args) => current.operationOf(name, args),
    recipeCharge: (name, args) => current.recipeCharge(name, args),
  };
  return {
    tools,
    /** Answers with `next` from now on; true when its list differs from the last one. */
    swap(next) {
      current = next;
      const nextListed = JSON.stringify(next.list);
      const changed = nextListed !== listed;
      listed = nextListed;
      return changed;
    },
  };
}

async function main(): Promise<void> {
  const dirs = operationsDirs(listOf(process.env.OPERATIONS_DIRS));
  const threshold = thresholdOf(process.env.MCP_TOOL_SEARCH_THRESHOLD);
  const build = async (fresh: boolean) =>
    listable(
      createMcpTools(await loadOperations(dirs, { fresh }), execute, (error) => {
        log(`unexpected fault: ${String((error as Error)?.stack ?? error)}`);
      }),
      threshold,
    );
  const { tools, swap } = swappable(await build(false));
  const server = mcpServer(tools, { listChanged: true });
  await server.connect(new StdioServerTransport());
  // One reload at a time, in the order the signals came.
  let reloading = Promise.resolve();
  process.on("SIGHUP", () => {
    reloading = reloading.then(async () => {
      try {
        const changed = swap(await build(true));
        log(changed ? "reloaded: the tool list changed" : "reloaded: the tool list is the same");
        if (changed) await server.sendToolListChanged();
      } catch (error) {
        log(
          `reload refused, the previous tools keep serving: ${String((error as Error)?.message ?? error)}`,
        );
      }
    });
  });
}

main().catch((error: unknown) => {
  log(`MCP server failed to start: ${String((error as Error)?.stack ?? error)}`);
  process.exit(1);
});
