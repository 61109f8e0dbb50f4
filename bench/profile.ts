/**
 * CPU profile of the service under one benchmark load: starts `node --cpu-prof
 * dist/src/server.js` (as `npm run bench` runs it, pinned to CPU 0 with the load on CPU 1: `npm start`'s node flags and malloc
 * settings, the shipped quota and log level), loads it with autocannon at 50
 * connections, sends SIGTERM (the service drains and exits 0, writing the profile), and
 * prints where the time went during the load. `raw` profiles the bare node:http server
 * the same way, for comparison, and so does `bare-fastify` (the framework alone).
 *
 * Usage: npx tsx bench/profile.ts [--targets raw,rest-sum,graphql-1,graphql-10] [--seconds 10]
 *        [--dir /tmp/prof] [--top 25] [--no-build]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startCommand } from "../scripts/lib/start-command.js";
import { loadOperations } from "../src/registry/loader.js";
import { type CpuProfile, formatSummary, summariseProfile } from "./cpuprofile-top.js";
import { runLoad, stopLoad } from "./lib/load.js";
import { killAllNow, pinToCpu, startNode, stopServer, waitReady } from "./lib/proc.js";
import { frameworkEnv, shippedEnv } from "./lib/shipped.js";
import { buildWorkloads, checkWorkload } from "./lib/workload.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** `npm start`'s node flags and malloc settings: the service is profiled as it runs. */
const START = startCommand();

function log(message: string): void {
  process.stderr.write(`[profile] ${message}\n`);
}

/** Microseconds on the monotonic clock V8's profiler stamps its samples with. */
function nowUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      targets: { type: "string", default: "rest-sum,graphql-1,graphql-10" },
      seconds: { type: "string", default: "10" },
      dir: { type: "string", default: path.join(os.tmpdir(), "prof") },
      top: { type: "string", default: "25" },
      "no-build": { type: "boolean", default: false },
    },
  });
  const seconds = Number(values.seconds);
  if (!values["no-build"]) {
    const build = spawnSync("npm", ["run", "build"], {
      cwd: ROOT,
      stdio: ["ignore", process.stderr, process.stderr],
    });
    if (build.status !== 0) throw new Error("npm run build failed");
  }
  const workloads = buildWorkloads(await loadOperations());
  pinToCpu(process.pid, 1);
  const logDir = mkdtempSync(path.join(os.tmpdir(), "ucs-profile-"));
  for (const name of values.targets.split(",")) {
    const workload = workloads.find((w) => w.name === name);
    const scripts: Partial<Record<string, string>> = {
      raw: path.join(ROOT, "bench", "raw-server.mjs"),
      "bare-fastify": path.join(ROOT, "bench", "bare-fastify.mjs"),
      "bare-fastify-rate-limit": path.join(ROOT, "bench", "bare-fastify.mjs"),
      "bare-fastify-rate-limit-log": path.join(ROOT, "bench", "bare-fastify.mjs"),
      service: path.join(ROOT, "dist", "src", "server.js"),
    };
    const script = workload ? scripts[workload.server] : undefined;
    if (!workload || !script) throw new Error(`${name}: not a single-process node target`);
    const dir = path.join(values.dir, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const server = await startNode({
      name: `profile-${name}`,
      args: [
        ...(workload.server === "service" ? START.nodeFlags : []),
        "--cpu-prof",
        `--cpu-prof-dir=${dir}`,
        "--cpu-prof-interval=250",
        script,
      ],
      // As shipped (npm start's flags, quota on, info log), its key store in this run's temp dir.
      env:
        workload.server === "service"
          ? { ...START.env, ...shippedEnv(path.join(logDir, `${name}-data`)) }
          : frameworkEnv(workload.server),
      logDir,
      cwd: ROOT,
    });
    // Pinned as the bench pins: the service on CPU 0, the load on CPU 1. Unpinned, the two
    // share a CPU at times and every socket write pays for waking the other side.
    pinToCpu(server.pid, 0);
    await waitReady(server, { path: workload.server === "raw" ? "/" : "/health" });
    const problems = await checkWorkload(server.origin, workload);
    if (problems.length > 0) throw new Error(problems.join("\n"));
    // A short warm-up outside the window, so the profile shows the steady state.
    await runLoad(server.origin, workload, { connections: 50, seconds: 2 });
    const fromUs = nowUs();
    const result = await runLoad(server.origin, workload, { connections: 50, seconds });
    const toUs = nowUs();
    const code = await stopServer(server);
    const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
    if (code !== 0 || !file)
      throw new Error(`${name}: exit code ${code}, profile ${file ?? "missing"}`);
    const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CpuProfile;
    const summary = summariseProfile(profile, { top: Number(values.top), fromUs, toUs });
    process.stdout.write(
      `\n=== ${name}: ${workload.description}\n` +
        `${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms ` +
        `(under the profiler); profile: ${path.join(dir, file)}\n\n${formatSummary(summary)}\n`,
    );
  }
  return 0;
}

process.on("SIGINT", () => {
  stopLoad();
  killAllNow();
  process.exit(130);
});

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(String((error as Error)?.stack ?? error));
    killAllNow();
    process.exit(1);
  },
);
