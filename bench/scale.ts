/**
 * `npm run bench:scale`: what the size of the catalogue costs. Builds the service, then
 * starts it as `npm start` does (node flags, malloc settings, NODE_ENV=production) with
 * three catalogues, in turn, several rounds:
 *
 * - `16 built-in`: the sixteen operations the service first shipped (a copy of `dist/` whose
 *   `operations/` holds only those), the yardstick as the catalogue grows;
 * - `catalogue`: whatever `operations/` holds;
 * - `catalogue + 300`: the same with 300 synthetic operator modules in OPERATIONS_DIRS
 *   (scripts/lib/synthetic-operations.ts: `.ts`, the kit by its package name, five shapes).
 *
 * For each: CPU until /health answers (user + system of every thread, from /proc), idle RSS
 * and V8 heap used 5 s later, the bytes of /openapi.json, of the GraphQL SDL (introspected
 * and printed) and of the MCP `tools/list` answer, /docs loaded in Chromium (until Swagger
 * UI holds every path and has drawn the first operations), and `ucs <area> <name> --help` (the built CLI) wall time. Writes the
 * medians to bench/results/scale.md and every run to scale.json. Reports, does not gate:
 * test/process/scale.test.ts holds the bounds.
 *
 * Options: --runs 3 --count 300 --no-build --no-browser --out bench/results
 */
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { buildClientSchema, getIntrospectionQuery, printSchema } from "graphql";
import { type Browser, chromium } from "playwright-core";
import { cpuTicks, statusKb } from "../scripts/lib/proc-stats.js";
import { startCommand } from "../scripts/lib/start-command.js";
import { writeSyntheticOperations } from "../scripts/lib/synthetic-operations.js";
import { freePort } from "./lib/proc.js";
import { machine, median } from "./lib/report.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const HOST = "127.0.0.1";
const KEY = "scale-bench-key-0123456789abcdefghijklmn";
const METRICS_TOKEN = "scale-bench-metrics-0123456789abcdefghij";
const CHROMIUM = "/usr/bin/chromium";
/** How long the service sits idle before its RSS and heap are read. */
const IDLE_MS = 5_000;

/** The sixteen operations the service first shipped. */
const FIRST_SIXTEEN = [
  "case/detect",
  "crypto/checksum/md5",
  "datetime/is-leap-year",
  "finance/simple-interest",
  "fun/would-you-rather",
  "hash/hmac-md5",
  "ip/supernet",
  "math/is-between",
  "math/nth-root",
  "math/subtract",
  "math/sum",
  "misc/fizzbuzz",
  "misc/status-code",
  "stats/product",
  "stats/range",
  "text/sentiment",
];

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    count: { type: "string", default: "300" },
    "no-build": { type: "boolean", default: false },
    "no-browser": { type: "boolean", default: false },
    out: { type: "string", default: "bench/results" },
  },
});
const RUNS = Number(options.runs);
const COUNT = Number(options.count);

interface Catalogue {
  name: string;
  /** The package root the service runs from. */
  root: string;
  operationsDirs: string[];
}

interface Figures {
  operations: number;
  startCpuMs: number;
  startWallMs: number;
  idleRssMb: number;
  heapUsedMb: number;
  openApiKb: number;
  sdlKb: number;
  toolsListKb: number;
  tools: number;
  docsLoadMs: number | null;
  cliHelpMs: number;
}

const COLUMNS: [keyof Figures, string][] = [
  ["operations", "operations"],
  ["startCpuMs", "start: CPU until /health (ms)"],
  ["startWallMs", "start: wall (ms)"],
  ["idleRssMb", "idle RSS (MB)"],
  ["heapUsedMb", "heap used (MB)"],
  ["openApiKb", "/openapi.json (KB)"],
  ["sdlKb", "GraphQL SDL (KB)"],
  ["toolsListKb", "MCP tools/list (KB)"],
  ["docsLoadMs", "/docs in Chromium (ms)"],
  ["cliHelpMs", "CLI --help (ms)"],
];

const start = startCommand();
const cleanup: string[] = [];

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
}

/**
 * A package root beside the checkout whose `dist/operations` holds only `ids` (helpers
 * kept): `dist/src` is copied, not linked, since the loader finds `operations/` from its
 * own real path.
 */
function rootWith(ids: readonly string[]): string {
  const root = mkdtempSync(path.join(tmpdir(), "ucs-scale-root-"));
  cleanup.push(root);
  cpSync(path.join(ROOT, "package.json"), path.join(root, "package.json"));
  symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"));
  cpSync(path.join(ROOT, "dist", "src"), path.join(root, "dist", "src"), { recursive: true });
  const operations = path.join(root, "dist", "operations");
  cpSync(path.join(ROOT, "dist", "operations"), operations, { recursive: true });
  const keep = new Set(ids.map((id) => `${id}.js`));
  for (const entry of readdirSync(operations, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith("_") || !entry.name.endsWith(".js")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(operations, file).split(path.sep).join("/");
    if (relative.split("/").some((part) => part.startsWith("_"))) continue;
    if (relative.endsWith(".test.js") || !keep.has(relative)) rmSync(file);
  }
  return root;
}

async function get(port: number, url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`http://${HOST}:${port}${url}`, {
    ...init,
    headers: { "x-api-key": KEY, ...(init.headers ?? {}) },
    signal: AbortSignal.timeout(30_000),
  });
}

/** The service's `/metrics` value of `name` (an unlabelled gauge). */
function metric(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.split(" ").pop());
}

async function measure(catalogue: Catalogue, browser: Browser | undefined): Promise<Figures> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "ucs-scale-data-"));
  cleanup.push(dataDir);
  const env: Record<string, string> = { ...start.env };
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, {
    HOST,
    PORT: String(port),
    NODE_ENV: "production",
    API_KEYS: KEY,
    METRICS_TOKEN,
    LOG_LEVEL: "warn",
    DATA_DIR: dataDir,
    OPERATIONS_DIRS: catalogue.operationsDirs.join(","),
    // Every tool in one list, as the scale test asks for it (past 40, the search pair).
    MCP_TOOL_SEARCH_THRESHOLD: "0",
  });
  const began = performance.now();
  const child = spawn(process.execPath, [...start.nodeFlags, "dist/src/server.js"], {
    cwd: catalogue.root,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const pid = child.pid ?? -1;
  try {
    let startCpuMs = Number.NaN;
    let startWallMs = Number.NaN;
    for (let tries = 0; tries < 3_000; tries++) {
      if (child.exitCode !== null) throw new Error(`${catalogue.name}: the service exited`);
      const ok = await fetch(`http://${HOST}:${port}/health`, { signal: AbortSignal.timeout(1000) })
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ok) {
        startCpuMs = cpuTicks(pid) * 10;
        startWallMs = performance.now() - began;
        break;
      }
      await sleep(20);
    }
    if (Number.isNaN(startCpuMs)) throw new Error(`${catalogue.name}: no /health in 60 s`);
    await sleep(IDLE_MS);
    const idleRssMb = (statusKb(pid, "VmRSS") ?? Number.NaN) / 1024;
    const metrics = await (
      await get(port, "/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    const heapUsedMb = metric(metrics, "nodejs_heap_size_used_bytes") / 2 ** 20;

    const openApi = await (await get(port, "/openapi.json")).text();
    const paths = Object.keys((JSON.parse(openApi) as { paths: object }).paths);
    const introspection = (await (
      await get(port, "/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: getIntrospectionQuery() }),
      })
    ).json()) as { data: Parameters<typeof buildClientSchema>[0] };
    const sdl = printSchema(buildClientSchema(introspection.data));
    const toolsList = await (
      await get(port, "/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      })
    ).text();
    const tools = (JSON.parse(toolsList) as { result: { tools: { name: string }[] } }).result.tools;

    // Swagger UI has read the whole document and drawn the first operations (it draws
    // the rest as they are scrolled into view: at 300 operations, 6 blocks at first).
    const operationPaths = paths.filter(
      (p) => p.startsWith("/v1/") && p !== "/v1/me" && p !== "/v1/recipes",
    );
    const lastPath = operationPaths.at(-1) ?? "";
    let docsLoadMs: number | null = null;
    if (browser !== undefined) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      const page = await context.newPage();
      const t0 = performance.now();
      await page.goto(`http://${HOST}:${port}/docs`, { waitUntil: "load", timeout: 60_000 });
      await page.locator(".opblock").first().waitFor({ state: "visible", timeout: 60_000 });
      const known = await page.evaluate(
        () =>
          (
            window as unknown as {
              ui: { specSelectors: { specJson(): { get(k: string): { size: number } } } };
            }
          ).ui.specSelectors
            .specJson()
            .get("paths").size,
      );
      docsLoadMs = performance.now() - t0;
      await context.close();
      if (known !== paths.length) {
        throw new Error(`${catalogue.name}: /docs shows ${known} paths of ${paths.length}`);
      }
    }

    const [area, ...name] = lastPath.replace(/^\/v1\//, "").split("/");
    const t1 = performance.now();
    const cli = spawnSync(
      process.execPath,
      ["dist/src/cli/main.js", area ?? "", name.join("/"), "--help"],
      { cwd: catalogue.root, env, encoding: "utf8", timeout: 60_000 },
    );
    const cliHelpMs = performance.now() - t1;
    if (cli.status !== 0) throw new Error(`${catalogue.name}: ucs --help failed: ${cli.stderr}`);

    return {
      operations: tools.length,
      startCpuMs,
      startWallMs,
      idleRssMb,
      heapUsedMb,
      openApiKb: Buffer.byteLength(openApi) / 1024,
      sdlKb: Buffer.byteLength(sdl) / 1024,
      toolsListKb: Buffer.byteLength(toolsList) / 1024,
      tools: tools.length,
      docsLoadMs,
      cliHelpMs,
    };
  } finally {
    child.kill("SIGKILL");
    await new Promise((resolve) =>
      child.exitCode === null ? child.once("exit", resolve) : resolve(undefined),
    );
  }
}

function round(value: number | null, key: keyof Figures): string {
  if (value === null || Number.isNaN(value)) return "—";
  return key.endsWith("Mb") || key.endsWith("Kb") ? value.toFixed(1) : String(Math.round(value));
}

async function main(): Promise<void> {
  if (!options["no-build"]) run("npm", ["run", "build"]);
  const synthetic = mkdtempSync(path.join(tmpdir(), "ucs-scale-operations-"));
  cleanup.push(synthetic);
  await writeSyntheticOperations(synthetic, COUNT);
  const catalogues: Catalogue[] = [
    { name: "16 built-in", root: rootWith(FIRST_SIXTEEN), operationsDirs: [] },
    { name: "catalogue", root: ROOT, operationsDirs: [] },
    { name: `catalogue + ${COUNT}`, root: ROOT, operationsDirs: [synthetic] },
  ];
  const browser =
    options["no-browser"] || !existsSync(CHROMIUM)
      ? undefined
      : await chromium.launch({
          executablePath: CHROMIUM,
          args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run"],
          timeout: 30_000,
        });
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const runs: Record<string, Figures[]> = Object.fromEntries(catalogues.map((c) => [c.name, []]));
  try {
    for (let round = 0; round < RUNS; round++) {
      for (const catalogue of catalogues) {
        const figures = await measure(catalogue, browser);
        runs[catalogue.name]?.push(figures);
        console.log(`${catalogue.name} #${round + 1}: ${JSON.stringify(figures)}`);
      }
    }
  } finally {
    await browser?.close();
  }
  const medians = catalogues.map((catalogue) => {
    const list = runs[catalogue.name] ?? [];
    const row = {} as Record<keyof Figures, number | null>;
    for (const [key] of COLUMNS) {
      const values = list.map((f) => f[key]).filter((v): v is number => v !== null);
      row[key] = values.length > 0 ? median(values) : null;
    }
    return { name: catalogue.name, ...row };
  });
  const when = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  // A shared machine's other load inflates wall times most, CPU times somewhat.
  const load = `${loadBefore.toFixed(1)} before, ${(loadavg()[0] ?? Number.NaN).toFixed(1)} after`;
  const lines = [
    "# Catalogue scale",
    "",
    `\`npm run bench:scale\`, ${when}, medians of ${RUNS} runs; the service as \`npm start\` runs it (NODE_ENV=production).`,
    `Machine: ${JSON.stringify(machine())}; load average (1 min) ${load}.`,
    "",
    `| catalogue | ${COLUMNS.map(([, label]) => label).join(" | ")} |`,
    `|---|${COLUMNS.map(() => "--:").join("|")}|`,
    ...medians.map(
      (row) =>
        `| ${row.name} | ${COLUMNS.map(([key]) => round(row[key] as number | null, key)).join(" | ")} |`,
    ),
    "",
  ];
  const out = path.resolve(ROOT, options.out);
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, "scale.md"), lines.join("\n"));
  writeFileSync(
    path.join(out, "scale.json"),
    `${JSON.stringify({ when, runs: RUNS, count: COUNT, machine: machine(), load, medians, every: runs }, null, 2)}\n`,
  );
  console.log(lines.join("\n"));
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
  });
