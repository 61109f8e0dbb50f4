/**
 * MCP over stdio declares `tools.listChanged` and keeps its word: a SIGHUP that changes
 * the tool list (a module added to `OPERATIONS_DIRS`) sends
 * `notifications/tools/list_changed`, after which the new tool is listed and answers; a
 * SIGHUP that changes nothing sends none.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT, sleep, waitFor } from "./helpers.js";

/** A module answering `{ version }` at `ext/<name>`. */
const moduleText = (
  name: string,
) => `import { defineOperation, z } from "utility-calculation-service/kit";

export default defineOperation({
  area: "ext",
  name: "${name}",
  summary: "Answers one",
  description: "A reload fixture.",
  input: z.object({}),
  output: z.object({ version: z.int() }),
  examples: [{ title: "one", input: {}, output: { version: 1 } }],
  handler: () => ({ version: 1 }),
});
`;

let dir: string;
let client: Client;
let transport: StdioClientTransport;
let stderr = "";
let notices = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ucs-mcp-reload-"));
  await mkdir(path.join(dir, "ext"));
  await writeFile(path.join(dir, "ext", "first.js"), moduleText("first"));
  transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "src/mcp/stdio.ts"],
    cwd: ROOT,
    env: {
      ...(process.env as Record<string, string>),
      OPERATIONS_DIRS: dir,
      MCP_TOOL_SEARCH_THRESHOLD: "0",
    },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client({ name: "reload-test", version: "1.0.0" });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    notices++;
  });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const names = async () => (await client.listTools()).tools.map((tool) => tool.name);

/** Sends SIGHUP to the server and waits for its reload line on stderr. */
async function reload(): Promise<void> {
  const before = stderr.split("reloaded:").length;
  process.kill(transport.pid as number, "SIGHUP");
  expect(await waitFor(() => stderr.split("reloaded:").length > before, 30_000), stderr).toBe(true);
}

it("declares listChanged", () => {
  expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
});

it("notifies after a reload that changes the list, and serves the new tool", async () => {
  expect(await names()).toContain("ext_first");
  expect(await names()).not.toContain("ext_second");
  await writeFile(path.join(dir, "ext", "second.js"), moduleText("second"));
  await reload();
  expect(await waitFor(() => notices === 1, 10_000)).toBe(true);
  expect(await names()).toContain("ext_second");
  const answer = await client.callTool({ name: "ext_second", arguments: {} });
  expect(answer.structuredContent).toEqual({ version: 1 });
}, 60_000);

it("sends nothing after a reload that leaves the list as it was", async () => {
  const before = notices;
  await reload();
  // The notification, if any, is written before the reload's line; a moment for it to land.
  await sleep(200);
  expect(notices).toBe(before);
}, 60_000);
