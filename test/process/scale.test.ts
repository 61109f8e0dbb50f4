/**
 * The registry at 300 operator modules: 300 synthetic `.ts` modules
 * (scripts/lib/synthetic-operations.ts: the kit by its package name, its parameter
 * builders, examples, output schemas, five shapes) in a temporary OPERATIONS_DIRS, served
 * by the built service started as `npm start` starts it (its node flags and malloc
 * settings, NODE_ENV=production). It starts within the bounds below (CPU against the
 * same start without the modules, measured first), and every surface
 * serves every module: REST (every /v1 path of /openapi.json answers its first example),
 * GraphQL (introspection lists them, a batch calls one of each shape), MCP (`tools/list`
 * whole in one answer, a tool set narrowed to an area, a call), the CLI (`list`),
 * /docs and /openapi.json. `npm run bench:scale` reports the same figures (docs/performance.md).
 *
 * The service runs from `dist/` (the start's bounds are production's: under tsx, compiling
 * the sources costs more than the catalogue); `npm run build` runs first when `dist/` is
 * older than the sources.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryOf } from "../../scripts/lib/query.js";
import {
  type SyntheticOperation,
  writeSyntheticOperations,
} from "../../scripts/lib/synthetic-operations.js";
import { camel } from "../graphql-helpers.js";
import {
  cpuMs,
  freePort,
  HOST,
  httpGet,
  Proc,
  ROOT,
  residentMb,
  START,
  sleep,
  stopAll,
} from "./helpers.js";

const COUNT = 300;
const KEY = "scale-test-key-0123456789abcdefghijklmn";
const METRICS_TOKEN = "scale-test-metrics-0123456789abcdefghij";
const HEADERS = { "x-api-key": KEY };

/**
 * CPU (user + system, every thread: the vetting worker's too) until /health answers 200,
 * as a multiple of the same start without an operator's folder, measured alongside: on the
 * shared machine the CPU a start takes moves up to 2x with the other load, the ratio little.
 */
const START_CPU_RATIO = 3.0;
/** A ceiling whatever the load: a start that wedges or loops on a module is far past it. */
const START_CPU_MS = 9_000;
/** Resident memory and V8 heap used once the started service has sat idle for {@link IDLE_MS}. */
const IDLE_RSS_MB = 140;
const HEAP_USED_MB = 56;
const IDLE_MS = 3_000;
/**
 * Sizes of the documents per operation served (the built-in catalogue and these 300): the
 * built-in operations describe more than the synthetic ones, so the bounds follow the count.
 */
const OPENAPI_KB_PER_OPERATION = 2.5;
const SDL_KB_PER_OPERATION = 1.2;
const TOOLS_LIST_KB_PER_OPERATION = 1.5;

let dir: string;
let synthetic: SyntheticOperation[];
let server: Proc;
let port: number;
let startCpuMs: number;
let baselineCpuMs: number;

/** The newest modification time under `folder` (files only), in ms. */
function newest(folder: string): number {
  let latest = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      latest = Math.max(latest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return latest;
}

/** Builds `dist/` unless it is newer than every source it is built from. */
function ensureBuilt(): void {
  const built = (() => {
    try {
      return statSync(path.join(ROOT, "dist", "src", "server.js")).mtimeMs;
    } catch {
      return 0;
    }
  })();
  const sources = Math.max(
    newest(path.join(ROOT, "src")),
    newest(path.join(ROOT, "operations")),
    statSync(path.join(ROOT, "package.json")).mtimeMs,
    statSync(path.join(ROOT, "tsconfig.build.json")).mtimeMs,
  );
  if (built > sources) return;
  const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`npm run build failed\n${build.stdout}${build.stderr}`);
}

/** The environment of the service and of the CLI: production's, with the operator's folder. */
function environment(): Record<string, string> {
  const env: Record<string, string> = { ...START.env };
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    HOST,
    NODE_ENV: "production",
    API_KEYS: KEY,
    METRICS_TOKEN,
    LOG_LEVEL: "warn",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "ucs-data-")),
    OPERATIONS_DIRS: dir,
    // Every tool in one list (the search pair past 40 tools has tests of its own).
    MCP_TOOL_SEARCH_THRESHOLD: "0",
  };
}

/** Starts the built service with `env`; its port and the CPU it took until /health. */
async function start(
  name: string,
  env: Record<string, string>,
): Promise<{ proc: Proc; port: number; cpuMs: number }> {
  const port = await freePort();
  const proc = new Proc(name, process.execPath, [...START.nodeFlags, "dist/src/server.js"], {
    ...env,
    PORT: String(port),
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && proc.running) {
    const ok = await httpGet(port, "/health", { timeoutMs: 1000 }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { proc, port, cpuMs: cpuMs(proc.pid) };
    await sleep(20);
  }
  throw new Error(`${name} did not start\n${proc.output()}`);
}

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), "ucs-scale-"));
  synthetic = await writeSyntheticOperations(dir, COUNT);
  const { OPERATIONS_DIRS: _, ...builtInOnly } = environment();
  const baseline = await start("built-in only", builtInOnly);
  baselineCpuMs = baseline.cpuMs;
  await baseline.proc.kill();
  ({ proc: server, port, cpuMs: startCpuMs } = await start("scale", environment()));
}, 120_000);

afterAll(async () => {
  await stopAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const get = (url: string) => httpGet(port, url, { headers: HEADERS, timeoutMs: 20_000 });

let served: Promise<number> | undefined;
/** How many operations the service serves: its /v1 GET paths but /v1/me. */
function servedCount(): Promise<number> {
  served ??= get("/openapi.json").then(
    (response) =>
      Object.keys((JSON.parse(response.body) as { paths: Record<string, unknown> }).paths).filter(
        (url) => url.startsWith("/v1/") && url !== "/v1/me" && url !== "/v1/recipes",
      ).length,
  );
  return served;
}

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`http://${HOST}:${port}${url}`, {
    method: "POST",
    headers: { ...HEADERS, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  }).then(async (response) => ({ status: response.status, text: await response.text() }));
}

const mcp = (url: string, body: unknown) =>
  post(url, body, { accept: "application/json, text/event-stream" });

/** A GraphQL selection of each synthetic shape's answer. */
const SELECTIONS = [
  "{ result decimal }",
  "{ result decimal count }",
  "{ label codePoints }",
  "{ steps last }",
  "{ unit value { decimal result } }",
];

/** A GraphQL field calling `operation` with its example (enums as GraphQL enums). */
function graphqlField(operation: SyntheticOperation): string {
  const args = Object.entries(operation.example.input)
    .map(([name, value]) => {
      const text =
        (name === "style" || name === "unit") && typeof value === "string"
          ? value
          : typeof value === "number" || typeof value === "boolean"
            ? String(value)
            : JSON.stringify(value);
      return `${name}: ${text}`;
    })
    .join(", ");
  return `${camel(operation.area)} { ${camel(operation.name)}(${args}) ${SELECTIONS[operation.shape]} }`;
}

describe(`${COUNT} operator modules`, () => {
  it(`starts in under ${START_CPU_RATIO}x the CPU of the built-in catalogue, idles under ${IDLE_RSS_MB} MB`, async () => {
    const figures = `${startCpuMs} ms of CPU to start, ${baselineCpuMs} ms without the modules`;
    expect(startCpuMs, figures).toBeLessThan(START_CPU_RATIO * baselineCpuMs);
    expect(startCpuMs, figures).toBeLessThan(START_CPU_MS);
    await sleep(IDLE_MS);
    expect(residentMb(server.pid).now).toBeLessThan(IDLE_RSS_MB);
    const metrics = await httpGet(port, "/metrics", {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const heap = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(metrics.body)?.[1];
    expect(Number(heap) / 2 ** 20).toBeLessThan(HEAP_USED_MB);
  });

  it("answers every /v1 path of /openapi.json with its first example", async () => {
    const response = await get("/openapi.json");
    expect(response.status).toBe(200);
    expect(Buffer.byteLength(response.body) / 1024).toBeLessThan(
      OPENAPI_KB_PER_OPERATION * (await servedCount()),
    );
    type Parameter = { name: string; examples?: Record<string, { value: unknown }> };
    type Get = {
      parameters: Parameter[];
      responses: {
        200: { content: { "application/json": { examples: Record<string, unknown> } } };
      };
    };
    const paths = (JSON.parse(response.body) as { paths: Record<string, { get?: Get }> }).paths;
    for (const operation of synthetic) expect(paths).toHaveProperty([`/v1/${operation.id}`]);
    const operations = Object.entries(paths).filter(
      ([url, item]) => url.startsWith("/v1/") && url !== "/v1/me" && item.get,
    );
    expect(operations.length).toBeGreaterThanOrEqual(COUNT + 16);
    const failures: string[] = [];
    for (const [url, item] of operations) {
      const get_ = item.get as Get;
      const input: Record<string, unknown> = {};
      for (const parameter of get_.parameters) {
        const example = parameter.examples?.example1;
        if (example !== undefined) input[parameter.name] = example.value;
      }
      const expected = (
        get_.responses[200].content["application/json"].examples.example1 as { value: unknown }
      ).value;
      const answer = await get(`${url}?${queryOf(input)}`);
      if (answer.status !== 200) failures.push(`${url}: ${answer.status} ${answer.body}`);
      else if (JSON.stringify(JSON.parse(answer.body)) !== JSON.stringify(expected)) {
        failures.push(`${url}: ${answer.body}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it("GraphQL: introspection lists every module; one batch calls one of each shape", async () => {
    const introspection = await post("/graphql", {
      query: "{ __schema { types { name fields { name } } } }",
    });
    const types = (
      JSON.parse(introspection.text) as {
        data: { __schema: { types: { name: string; fields: { name: string }[] | null }[] } };
      }
    ).data.__schema.types;
    const fields = new Set(types.flatMap((type) => (type.fields ?? []).map((f) => f.name)));
    for (const operation of synthetic) expect(fields).toContain(camel(operation.name));

    const sample = [...synthetic.slice(0, 5), ...synthetic.slice(-5)];
    const query = `{ ${sample.map((operation, i) => `f${i}: ${graphqlField(operation)}`).join(" ")} }`;
    const answer = await post("/graphql", { query });
    const body = JSON.parse(answer.text) as {
      data: Record<string, Record<string, unknown>>;
      errors?: unknown;
    };
    expect(body.errors, answer.text).toBeUndefined();
    sample.forEach((operation, i) => {
      expect(body.data[`f${i}`]?.[camel(operation.name)]).toEqual(operation.example.output);
    });
  });

  it("GraphQL: the printed schema stays within its bound", async () => {
    const { buildClientSchema, getIntrospectionQuery, printSchema } = await import("graphql");
    const answer = await post("/graphql", { query: getIntrospectionQuery() });
    const sdl = printSchema(buildClientSchema(JSON.parse(answer.text).data));
    for (const area of new Set(synthetic.map((o) => o.area))) expect(sdl).toContain(`${area}:`);
    expect(Buffer.byteLength(sdl) / 1024).toBeLessThan(
      SDL_KB_PER_OPERATION * (await servedCount()),
    );
  });

  it("MCP: tools/list is every tool in one answer (no pages); an area's set; a call", async () => {
    const list = await mcp("/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(list.status).toBe(200);
    const result = (
      JSON.parse(list.text) as { result: { tools: { name: string }[]; nextCursor?: string } }
    ).result;
    expect(result.tools.length).toBeGreaterThanOrEqual(COUNT + 16);
    expect(result.nextCursor).toBeUndefined();
    expect(Buffer.byteLength(list.text) / 1024).toBeLessThan(
      TOOLS_LIST_KB_PER_OPERATION * (await servedCount()),
    );
    const names = new Set(result.tools.map((tool) => tool.name));
    for (const operation of synthetic) {
      expect(names).toContain(`${operation.area}_${operation.name}`.replace(/[/-]/g, "_"));
    }

    // A client that takes at most 128 tools mounts an area (docs/mcp.md, tool sets).
    const area = synthetic[0]?.area ?? "";
    const set = await mcp(`/mcp/${area}`, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    const tools = (JSON.parse(set.text) as { result: { tools: unknown[] } }).result.tools;
    expect(tools).toHaveLength(synthetic.filter((o) => o.area === area).length);

    // The list and a call in one batch: the list's bytes count in the batch's budget.
    const operation = synthetic.at(-1) as SyntheticOperation;
    const batch = await mcp("/mcp", [
      { jsonrpc: "2.0", id: 3, method: "tools/list" },
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: {
          name: `${operation.area}_${operation.name}`.replace(/[/-]/g, "_"),
          arguments: operation.example.input,
        },
      },
    ]);
    expect(batch.status, batch.text.slice(0, 300)).toBe(200);
    const answers = JSON.parse(batch.text) as { id: number; result: Record<string, unknown> }[];
    const call = answers.find((a) => a.id === 4)?.result;
    expect(call?.structuredContent).toEqual(operation.example.output);
  });

  it("the CLI lists every module", () => {
    const list = spawnSync(process.execPath, ["dist/src/cli/main.js", "list"], {
      cwd: ROOT,
      env: environment(),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(list.status, list.stderr).toBe(0);
    for (const operation of synthetic) expect(list.stdout).toContain(operation.name);
  }, 60_000);

  it("/docs serves; the process is healthy throughout", async () => {
    expect((await get("/docs")).status).toBe(200);
    expect((await httpGet(port, "/health")).status).toBe(200);
    expect(server.running).toBe(true);
  });
});
