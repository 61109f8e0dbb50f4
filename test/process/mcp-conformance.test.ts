/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, its server
 * scenarios, the default "active" suite) against a started service's `/mcp`, through a
 * proxy on 127.0.0.1 that adds the API key and passes every other header on as it came
 * (Host and Origin included, which `dns-rebinding-protection` forges). The scenarios the
 * service is expected to fail are in test/mcp-conformance-baseline.yml, each with its
 * reason; the suite itself fails on any other failure and on a listed scenario that passes.
 * Offline: the suite talks only to the URL it is given.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort, HOST, ROOT, type Server, startServer, stopAll } from "./helpers.js";

const KEY = "mcp-conformance-key-0123456789";
const SUITE = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const BASELINE = path.join(ROOT, "test/mcp-conformance-baseline.yml");
/** The suite runs its ~30 scenarios in a second or two; this bounds a hung one. */
const SUITE_TIMEOUT_MS = 120_000;

let server: Server;
let proxy: http.Server;
let proxyPort: number;
let results: string;

beforeAll(async () => {
  proxyPort = await freePort();
  // The proxy's own origin is the one a browser page of it would send: allowed, as an
  // operator allows an agent UI's origin. `evil.example.com`, which the suite forges, is not.
  server = await startServer({
    API_KEYS: KEY,
    CORS_ORIGINS: `http://${HOST}:${proxyPort},http://localhost:${proxyPort}`,
  });
  proxy = http.createServer((request, response) => {
    const upstream = http.request(
      {
        host: HOST,
        port: server.port,
        path: request.url,
        method: request.method,
        headers: { ...request.headers, "x-api-key": KEY },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on("error", () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, HOST, resolve));
  results = await mkdtemp(path.join(tmpdir(), "ucs-mcp-conformance-"));
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await stopAll();
  if (results) await rm(results, { recursive: true, force: true });
});

/** Runs the suite; resolves with its exit code and output. */
function runSuite(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        SUITE,
        "server",
        "--url",
        `http://${HOST}:${proxyPort}/mcp`,
        "--expected-failures",
        BASELINE,
        "-o",
        results,
      ],
      { cwd: results, stdio: ["ignore", "pipe", "pipe"], timeout: SUITE_TIMEOUT_MS },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** Each scenario's checks, by scenario name, from the suite's result folders. */
async function checksByScenario(): Promise<Map<string, { id: string; status: string }[]>> {
  const checks = new Map<string, { id: string; status: string }[]>();
  for (const folder of await readdir(results)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(folder)?.[1];
    if (scenario === undefined) continue;
    const text = await readFile(path.join(results, folder, "checks.json"), "utf8");
    checks.set(scenario, JSON.parse(text));
  }
  return checks;
}

it(
  "passes every scenario but the baseline's, DNS-rebinding protection included",
  async () => {
    const { code, output } = await runSuite();
    expect(code, output.slice(-4000)).toBe(0);
    const checks = await checksByScenario();
    for (const scenario of [
      "server-initialize",
      "ping",
      "tools-list",
      "dns-rebinding-protection",
    ]) {
      const statuses = (checks.get(scenario) ?? []).map((check) => `${check.id}: ${check.status}`);
      expect(statuses.length, scenario).toBeGreaterThan(0);
      expect(
        statuses.filter((status) => !status.endsWith("SUCCESS")),
        scenario,
      ).toEqual([]);
    }
  },
  SUITE_TIMEOUT_MS + 10_000,
);
