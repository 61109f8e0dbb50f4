/**
 * An operator's TypeScript module is vetted once: the built service (as `npm start` runs
 * it) imports, in its serving thread, the source the vetting worker stripped of its types
 * (the TypeScript parser never loads there), and reports the worker's checks instead of
 * running the module's examples a second time.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, HOST, httpGet, Proc, ROOT, START, sleep, stopAll } from "./helpers.js";

const KEY = "vetted-once-test-key-0123456789abcdefghij";

/**
 * Each run of its handler adds a line to the file UCS_TEST_RUNS names. In the serving
 * thread it answers whether Node's TypeScript parser (amaro) was loaded there; in the
 * worker, its example's answer.
 */
const MODULE = `import { appendFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
import { defineOperation, z } from "utility-calculation-service/kit";

const runs: string = process.env.UCS_TEST_RUNS as string;
const loaded = (): string[] => (process as unknown as { moduleLoadList: string[] }).moduleLoadList;

export default defineOperation({
  area: "ext",
  name: "probe",
  summary: "Whether the serving thread stripped types",
  description: "A fixture: counts its runs and tells whether amaro was loaded.",
  input: z.object({}),
  output: z.object({ parserLoaded: z.boolean() }),
  examples: [{ title: "served", input: {}, output: { parserLoaded: false } }],
  handler: () => {
    appendFileSync(runs, "run\\n");
    return { parserLoaded: isMainThread && loaded().some((name) => name.includes("amaro")) };
  },
});
`;

let dir: string;
let runs: string;
let server: Proc;
let port: number;

/** Builds `dist/` when it is missing or older than the registry's sources. */
function ensureBuilt(): void {
  const built = path.join(ROOT, "dist", "src", "registry", "loader.js");
  const source = path.join(ROOT, "src", "registry", "loader.ts");
  if (existsSync(built) && statSync(built).mtimeMs > statSync(source).mtimeMs) return;
  const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`npm run build failed\n${build.stdout}${build.stderr}`);
}

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), "ucs-vetted-once-"));
  runs = path.join(dir, "runs.txt");
  await mkdir(path.join(dir, "ops", "ext"), { recursive: true });
  writeFileSync(path.join(dir, "ops", "ext", "probe.ts"), MODULE);
  writeFileSync(runs, "");
  port = await freePort();
  const env: Record<string, string> = { ...START.env };
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  server = new Proc("vetted-once", process.execPath, [...START.nodeFlags, "dist/src/server.js"], {
    ...env,
    HOST,
    PORT: String(port),
    NODE_ENV: "production",
    API_KEYS: KEY,
    LOG_LEVEL: "warn",
    DATA_DIR: path.join(dir, "data"),
    OPERATIONS_DIRS: path.join(dir, "ops"),
    UCS_TEST_RUNS: runs,
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && server.running) {
    const ok = await httpGet(port, "/health", { timeoutMs: 1000 }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`the service did not start\n${server.output()}`);
}, 120_000);

afterAll(async () => {
  await stopAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("an operator's TypeScript module, from dist/", () => {
  it("has its example run once, in the vetting worker", () => {
    expect(readFileSync(runs, "utf8")).toBe("run\n");
  });

  it("is served from the worker's stripped source: no TypeScript parser in the serving thread", async () => {
    const answer = await httpGet(port, "/v1/ext/probe", { headers: { "x-api-key": KEY } });
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ parserLoaded: false });
    expect(readFileSync(runs, "utf8")).toBe("run\nrun\n");
  });
});
