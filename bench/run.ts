/**
 * `npm run bench`: builds the service, starts it (single process, and WORKERS=2) beside a
 * bare node:http server answering a constant JSON body, and loads each target in turn with
 * autocannon, several rounds, alternating targets. Prints a Markdown table of the medians,
 * every figure also as a ratio to the raw server, checks the targets, and writes
 * bench/results/latest.md and latest.json (every round's raw figures).
 *
 * Exits 0 whether or not the targets are met (it reports, it does not gate); non-zero when
 * the build fails, a server cannot start, or a target answers errors.
 *
 * Options: --rounds 5 --seconds 4 --warmup 1 --connections 50 --no-build
 *          --no-pin (by default, with 2+ cores and taskset, each single-process server runs
 *          on CPU 0 and the load generator on CPU 1: unpinned, a server's CPU per request
 *          moved up to 2× from round to round with where the scheduler put the two)
 *          --node-flags="--max-old-space-size=96" (extra flags for the service's node, to try tuning)
 *          --out bench/results (where latest.md and latest.json go)
 *          --only rest-sum,graphql-10 (the raw server and both bare fastify rows always run)
 *          --idle-poll (idle CPUs poll instead of halting while measuring, as tuned's
 *          latency-performance profile has them: needs root; see docs/performance.md)
 *          (cheap-beside-costly: a cheap client's latency beside 4 connections looping costly requests)
 *
 * Beside the service run two frameworks answering REST sum's request (key check, query
 * validation, float sum): bare fastify, and FastAPI when /usr/bin/python3 has fastapi and
 * uvicorn. Every target also reports the CPU time its server process spent per request.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startCommand } from "../scripts/lib/start-command.js";
import { loadOperations } from "../src/registry/loader.js";
import { FAIRNESS_TARGET, type FairnessResult, measureFairness } from "./lib/fairness.js";
import { type LoadResult, runLoad, stopLoad } from "./lib/load.js";
import {
  childPids,
  cpuSnapshot,
  cpuTicks,
  killAllNow,
  otherCores,
  pinToCpu,
  RssSampler,
  rememberWorkers,
  rssKb,
  type Server,
  ServerError,
  startNode,
  stopServer,
  waitReady,
} from "./lib/proc.js";
import {
  checkTargets,
  machine,
  markdown,
  type RoundRecord,
  type Settings,
  summarise,
  TARGETS,
  type TargetCheck,
} from "./lib/report.js";
import { frameworkEnv, IDLE_SETTLE_MS, SHIPPED_LOG_LEVEL, shippedEnv } from "./lib/shipped.js";
import {
  buildWorkloads,
  checkWorkload,
  createManagedKey,
  isBareServer,
  isFrameworkServer,
  type ServerName,
  type Workload,
  withKey,
  YARDSTICK_WORK_US,
} from "./lib/workload.js";

/** How `npm start` runs the service, so the bench measures what ships. */
const START = startCommand();
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const LOG_LEVEL = SHIPPED_LOG_LEVEL;
/** With pinning: where single-process servers run, and where the bench (autocannon) runs. */
const SERVER_CPU = 0;
const LOAD_CPU = 1;
const PYTHON = "/usr/bin/python3";

/**
 * What the machine's python3 runs the FastAPI target with (versions, uvicorn's event loop
 * and HTTP parser: uvloop and httptools are several times faster than asyncio and h11), or
 * undefined when it cannot run it.
 */
function fastapiStack(): string | undefined {
  if (!existsSync(PYTHON)) return undefined;
  const probe = spawnSync(
    PYTHON,
    [
      "-c",
      "import fastapi, uvicorn, importlib.util as u\n" +
        "has = lambda m: u.find_spec(m) is not None\n" +
        'print(f"fastapi {fastapi.__version__}, uvicorn {uvicorn.__version__} with ' +
        "{'uvloop' if has('uvloop') else 'asyncio (no uvloop)'} and " +
        "{'httptools' if has('httptools') else 'h11 (no httptools)'}\")",
    ],
    { encoding: "utf8" },
  );
  return probe.status === 0 ? probe.stdout.trim() : undefined;
}

/**
 * Keeps idle CPUs polling rather than halting until the process exits: a wake-up latency of
 * 0 µs asked of the kernel through /dev/cpu_dma_latency, which holds while the file stays
 * open. On a virtual machine a halted CPU is woken through the hypervisor, and the sender
 * of each wake-up (a server answering a sleeping load generator) pays for it.
 */
function holdIdlePolling(): void {
  try {
    const fd = openSync("/dev/cpu_dma_latency", "w");
    writeSync(fd, Buffer.from(Int32Array.of(0).buffer));
  } catch (error) {
    throw new BenchError(`--idle-poll: /dev/cpu_dma_latency: ${(error as Error).message}`);
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

class BenchError extends Error {
  override name = "BenchError";
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) {
    throw new BenchError(`--${name} must be a positive number`);
  }
  return number;
}

function parse() {
  return parseArgs({
    options: {
      rounds: { type: "string" },
      seconds: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      only: { type: "string" },
      "no-build": { type: "boolean", default: false },
      "no-pin": { type: "boolean", default: false },
      "idle-poll": { type: "boolean", default: false },
      "node-flags": { type: "string", default: START.nodeFlags.join(" ") },
      out: { type: "string", default: path.join(ROOT, "bench", "results") },
    },
  });
}

function options() {
  let values: ReturnType<typeof parse>["values"];
  try {
    ({ values } = parse());
  } catch (error) {
    throw new BenchError((error as Error).message);
  }
  return {
    rounds: Math.round(positive("rounds", values.rounds, 5)),
    seconds: positive("seconds", values.seconds, 4),
    warmup: positive("warmup", values.warmup, 1),
    connections: Math.round(positive("connections", values.connections, 50)),
    only: values.only?.split(",").map((name) => name.trim()),
    build: !values["no-build"],
    pin: !values["no-pin"],
    idlePoll: values["idle-poll"],
    out: path.resolve(values.out),
    nodeFlags: values["node-flags"].split(/\s+/).filter(Boolean),
  };
}

function build(): void {
  log("building the service (npm run build)…");
  const result = spawnSync("npm", ["run", "build"], {
    cwd: ROOT,
    stdio: ["ignore", process.stderr, process.stderr],
  });
  if (result.status !== 0) throw new BenchError("npm run build failed");
}

/** Lays the written files out as `npm run lint` wants them (aligned tables, compact JSON). */
function formatFiles(files: readonly string[]): void {
  // Biome formats files of this repository only; elsewhere nothing lints them anyway.
  if (files.some((file) => path.relative(ROOT, file).startsWith(".."))) return;
  const biome = path.join(ROOT, "node_modules", ".bin", "biome");
  const result = spawnSync(biome, ["format", "--write", ...files], { cwd: ROOT, stdio: "ignore" });
  if (result.status !== 0) log("biome could not format the results; they are written unformatted");
}

function autocannonVersion(): string {
  const file = path.join(ROOT, "node_modules", "autocannon", "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/** The admin API's token (on as shipped), which makes the managed key: new each run. */
const ADMIN_TOKEN = randomBytes(32).toString("base64url");

/** The servers' stderr files and key stores: removed after a good run, kept after a failure. */
let logDir: string | undefined;

/** RSS (MB) of each server's processes once started and idle: the process, or primary + workers. */
const idle: Partial<Record<ServerName, number[]>> = {};

async function startServers(
  needed: ReadonlySet<ServerName>,
  logDir: string,
  nodeFlags: readonly string[],
  pin: boolean,
): Promise<Map<ServerName, Server>> {
  const service = (name: string, extra: Record<string, string> = {}) =>
    startNode({
      name,
      args: [...nodeFlags, path.join(ROOT, "dist", "src", "server.js")],
      env: {
        ...START.env,
        ...shippedEnv(path.join(logDir, `${name}-data`), ADMIN_TOKEN),
        ...extra,
      },
      logDir,
      cwd: ROOT,
    });
  const servers = new Map<ServerName, Server>();
  for (const name of needed) {
    log(`starting ${name}…`);
    const server = isFrameworkServer(name)
      ? await startNode({
          name,
          ...(name === "fastapi"
            ? { command: PYTHON, args: [path.join(ROOT, "bench", "fastapi_app.py")] }
            : { args: [path.join(ROOT, "bench", "bare-fastify.mjs")] }),
          env: frameworkEnv(name),
          logDir,
          cwd: ROOT,
        })
      : isBareServer(name)
        ? await startNode({
            name,
            args: [path.join(ROOT, "bench", "raw-server.mjs")],
            env: name === "raw-10us" ? { WORK_US: String(YARDSTICK_WORK_US) } : {},
            logDir,
            cwd: ROOT,
          })
        : await service(
            name,
            name === "workers2"
              ? { WORKERS: "2" }
              : name === "service-warn"
                ? { LOG_LEVEL: "warn" }
                : {},
          );
    servers.set(name, server);
    await waitReady(server, {
      path: isBareServer(name) ? "/" : "/health",
      workers: name === "workers2" ? 2 : 0,
    });
    if (pin && name !== "workers2" && !pinToCpu(server.pid, SERVER_CPU)) {
      throw new BenchError(`could not pin ${name} to CPU ${SERVER_CPU} (taskset); try --no-pin`);
    }
    const pids = [server.pid, ...(name === "workers2" ? childPids(server.pid) : [])];
    // Idle means after the service's first idle look (a second with nothing answered after
    // the readiness probes), which gives back the young generation starting grew.
    if (!isBareServer(name) && !isFrameworkServer(name)) await sleep(IDLE_SETTLE_MS);
    idle[name] = pids.map((pid) => Math.round((rssKb(pid) ?? 0) / 102.4) / 10);
    log(
      `${name} ready on ${server.origin} (pid ${server.pid}), idle RSS ${idle[name].join(" + ")} MB`,
    );
  }
  return servers;
}

/** One measured run: warm-up, then the load with RSS sampled every 100 ms. */
async function measure(
  servers: ReadonlyMap<ServerName, Server>,
  server: Server,
  workload: Workload,
  settings: Settings,
  round: number,
): Promise<RoundRecord> {
  const load = { connections: settings.connections };
  await runLoad(server.origin, workload, { ...load, seconds: settings.warmupSeconds });
  const clustered = workload.server === "workers2";
  const answering = new RssSampler(() => {
    if (!clustered) return [server.pid];
    const workers = childPids(server.pid);
    rememberWorkers(server, workers);
    return workers;
  }).start();
  const primary = clustered ? new RssSampler(() => [server.pid]).start() : undefined;
  const ours = () => [
    process.pid,
    ...[...servers.values()].flatMap((s) => [s.pid, ...childPids(s.pid)]),
  ];
  const cpuBefore = cpuSnapshot(ours());
  const serverPids = () => [server.pid, ...(clustered ? childPids(server.pid) : [])];
  const serverTicksBefore = serverPids().reduce((sum, pid) => sum + cpuTicks(pid), 0);
  let result: LoadResult;
  try {
    result = await runLoad(server.origin, workload, { ...load, seconds: settings.seconds });
  } catch (error) {
    answering.stop();
    primary?.stop();
    throw error;
  }
  const serverTicks = serverPids().reduce((sum, pid) => sum + cpuTicks(pid), 0) - serverTicksBefore;
  const rss = answering.stop();
  const primaryPeak = primary?.stop();
  const otherCpuCores = otherCores(cpuBefore, cpuSnapshot(ours()), os.cpus().length);
  if (server.child.exitCode !== null || server.child.signalCode !== null) {
    throw new BenchError(`${server.name} exited during the ${workload.name} load`);
  }
  return {
    round,
    target: workload.name,
    load: result,
    rss,
    otherCpuCores,
    cpuUsPerRequest:
      result.total > 0 ? (serverTicks * (1e6 / TICKS_PER_SECOND)) / result.total : Number.NaN,
    ...(primaryPeak ? { primaryRssMb: primaryPeak.maxProcessMb } : {}),
  };
}

async function main(): Promise<number> {
  const opts = options();
  const settings: Settings = {
    rounds: opts.rounds,
    seconds: opts.seconds,
    warmupSeconds: opts.warmup,
    connections: opts.connections,
    pipelining: 1,
    logLevel: LOG_LEVEL,
    autocannon: autocannonVersion(),
    nodeFlags: opts.nodeFlags,
    startEnv: START.env,
    pinned: opts.pin && os.availableParallelism() >= 2,
    idlePoll: opts.idlePoll,
  };
  if (opts.idlePoll) holdIdlePolling();
  if (opts.build) build();

  const operations = await loadOperations();
  const all = buildWorkloads(operations);
  const fairness = !opts.only || opts.only.includes(FAIRNESS_TARGET);
  const unknown = (opts.only ?? []).filter(
    (name) => name !== FAIRNESS_TARGET && !all.some((w) => w.name === name),
  );
  if (unknown.length > 0) throw new BenchError(`unknown targets: ${unknown.join(", ")}`);
  const fastapi = fastapiStack();
  if (fastapi) {
    settings.fastapi = fastapi;
    if (/\(no /.test(fastapi)) log(`FastAPI runs slower than it can: ${fastapi}`);
  } else log(`no FastAPI target: ${PYTHON} lacks fastapi or uvicorn`);
  const always = new Set([
    "raw",
    "bare-fastify",
    "bare-fastify-rate-limit",
    "bare-fastify-rate-limit-log",
  ]);
  const chosen = all.filter(
    (w) =>
      (fastapi || w.name !== "fastapi") &&
      (always.has(w.name) || !opts.only || opts.only.includes(w.name)),
  );

  logDir = mkdtempSync(path.join(os.tmpdir(), "ucs-bench-"));
  const servers = await startServers(
    new Set([...chosen.map((w) => w.server), ...(fairness ? (["service"] as const) : [])]),
    logDir,
    opts.nodeFlags,
    settings.pinned,
  );
  // After the servers start: WORKERS=2's workers, forked by then, keep every core.
  if (settings.pinned && !pinToCpu(process.pid, LOAD_CPU)) {
    throw new BenchError(
      `could not pin the load generator to CPU ${LOAD_CPU} (taskset); try --no-pin`,
    );
  }
  const serverOf = (workload: Workload): Server => {
    const server = servers.get(workload.server);
    if (!server) throw new BenchError(`no server for ${workload.name}`);
    return server;
  };
  const workloads = await Promise.all(
    chosen.map(async (w) => {
      if (!w.managedKey) return w;
      try {
        return withKey(w, await createManagedKey(serverOf(w).origin, ADMIN_TOKEN));
      } catch (error) {
        throw new BenchError(`${w.name}: ${(error as Error).message}`);
      }
    }),
  );

  log("checking that every target answers correctly…");
  const problems = (
    await Promise.all(workloads.map((w) => checkWorkload(serverOf(w).origin, w)))
  ).flat();
  if (problems.length > 0) {
    throw new BenchError(`targets answer errors:\n  ${problems.join("\n  ")}`);
  }

  const perRun = settings.seconds + settings.warmupSeconds;
  log(
    `measuring: ${settings.rounds} rounds × ${workloads.length} targets × ${perRun} s ≈ ` +
      `${Math.ceil((settings.rounds * workloads.length * perRun) / 60)} min`,
  );
  const records: RoundRecord[] = [];
  for (let round = 1; round <= settings.rounds; round++) {
    // Each round starts one target later, so no target always runs first or last.
    const shift = (round - 1) % workloads.length;
    const order = [...workloads.slice(shift), ...workloads.slice(0, shift)];
    for (const workload of order) {
      const record = await measure(servers, serverOf(workload), workload, settings, round);
      records.push(record);
      const { load, rss } = record;
      log(
        `round ${round} ${workload.name.padEnd(17)} ${Math.round(load.requestsPerSecond)
          .toString()
          .padStart(6)} req/s  p50 ${load.p50Ms} ms  p99 ${load.p99Ms} ms  ` +
          `CPU ${record.cpuUsPerRequest.toFixed(1)} µs/req  RSS ${rss.totalMb} MB  other load ${record.otherCpuCores} cores${load.non2xx + load.errors > 0 ? `  non2xx ${load.non2xx} errors ${load.errors}` : ""}`,
      );
    }
  }

  const fairnessRounds: (FairnessResult & { round: number; rssMb: number })[] = [];
  const service = servers.get("service");
  for (let round = 1; fairness && service && round <= settings.rounds; round++) {
    const rss = new RssSampler(() => [service.pid]).start();
    const result = await measureFairness(service.origin, operations, settings.seconds);
    fairnessRounds.push({ round, ...result, rssMb: rss.stop().maxProcessMb });
    log(
      `round ${round} ${FAIRNESS_TARGET} cheap p50 ${result.cheapP50Ms} ms p99 ${result.cheapP99Ms} ms ` +
        `(max ${result.cheapMaxMs}); costly ${Math.round(result.costlyRequestsPerSecond)} req/s; RSS ${fairnessRounds.at(-1)?.rssMb} MB` +
        `${result.non2xx + result.errors > 0 ? `  non2xx ${result.non2xx} errors ${result.errors}` : ""}`,
    );
  }

  const exitCodes: Record<string, number | null> = {};
  for (const [name, server] of servers) exitCodes[name] = await stopServer(server);
  rmSync(logDir, { recursive: true, force: true });

  const date = new Date();
  const summaries = summarise(workloads, records);
  const checks = [...checkTargets(summaries, idle), ...fairnessChecks(fairnessRounds)];
  let report = markdown(summaries, checks, settings, date, records, idle);
  if (fairnessRounds.length > 0) report += fairnessMarkdown(fairnessRounds);
  const failing = summaries.filter((s) => s.non2xx + s.errors > 0);
  if (failing.length > 0) {
    report += `\n**Errors under load**: ${failing
      .map((s) => `${s.target}: ${s.non2xx} non-2xx, ${s.errors} connection errors`)
      .join("; ")}\n`;
  }
  mkdirSync(opts.out, { recursive: true });
  writeFileSync(path.join(opts.out, "latest.md"), report);
  writeFileSync(
    path.join(opts.out, "latest.json"),
    `${JSON.stringify(
      {
        date: date.toISOString(),
        machine: machine(),
        settings,
        workloads: workloads.map(
          ({ name, server, description, calculationsPerRequest, requests }) => ({
            name,
            server,
            description,
            calculationsPerRequest,
            requests: requests.map(({ method, path: url, body }) => ({ method, path: url, body })),
          }),
        ),
        summaries,
        targets: checks,
        rounds: records,
        idleRssMb: idle,
        ...(fairnessRounds.length > 0 ? { cheapBesideCostly: fairnessRounds } : {}),
        serverExitCodes: exitCodes,
      },
      null,
      2,
    )}\n`,
  );
  formatFiles([path.join(opts.out, "latest.md"), path.join(opts.out, "latest.json")]);
  process.stdout.write(readFileSync(path.join(opts.out, "latest.md"), "utf8"));
  log(`written: ${path.join(opts.out, "latest.md")} and latest.json`);
  return failing.length > 0 ? 1 : 0;
}

type FairnessRound = FairnessResult & { rssMb: number };

/** The median over the fairness rounds of one figure. */
function medianOf(rounds: readonly FairnessRound[], pick: (r: FairnessRound) => number): number {
  const sorted = rounds.map(pick).sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

/** Issue 11's targets for the fairness row: the cheap client's p99, and the process's RSS. */
function fairnessChecks(rounds: readonly FairnessRound[]): TargetCheck[] {
  if (rounds.length === 0) return [];
  const p99 = medianOf(rounds, (r) => r.cheapP99Ms);
  const rss = Math.max(...rounds.map((r) => r.rssMb));
  return [
    {
      target: `p99 < ${TARGETS.cheapBesideCostlyP99Ms} ms for a cheap client beside 4 costly connections`,
      measured: `${p99} ms`,
      pass: p99 < TARGETS.cheapBesideCostlyP99Ms,
    },
    {
      target: `RSS < ${TARGETS.rssMbPerProcess} MB per process under load: ${FAIRNESS_TARGET}`,
      measured: `${rss} MB`,
      pass: rss < TARGETS.rssMbPerProcess,
    },
  ];
}

/** The fairness row: medians over rounds of the cheap client's latency and the peak RSS. */
function fairnessMarkdown(rounds: readonly FairnessRound[]): string {
  const mid = (pick: (r: FairnessRound) => number) => medianOf(rounds, pick);
  return [
    "",
    "## Cheap client beside costly clients",
    "",
    "4 connections loop the costliest legal request of every operation (REST) while one connection " +
      "sends `math/sum?numbers=1,2,3`; the cheap client's latency, medians over rounds.",
    "",
    "| Target | cheap p50 ms | cheap p99 ms | cheap max ms | costly req/s | peak RSS MB |",
    "|---|--:|--:|--:|--:|--:|",
    `| ${FAIRNESS_TARGET} | ${mid((r) => r.cheapP50Ms)} | ${mid((r) => r.cheapP99Ms)} | ${mid((r) => r.cheapMaxMs)} | ` +
      `${Math.round(mid((r) => r.costlyRequestsPerSecond))} | ${Math.max(...rounds.map((r) => r.rssMb))} |`,
    "",
  ].join("\n");
}

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping the load and every server`);
    stopLoad();
    killAllNow();
    process.exit(130);
  });
}

/**
 * The Node every target runs on: this one when the service supports it (package.json
 * `engines`), else the newest supported line, fetched once by `.ci/node` (the machine's
 * default Node may be older than the service supports; a figure taken on it would
 * describe no deployment).
 */
const BENCH_NODE = "24.21.0";

function supportedNode(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  return (major === 22 && minor >= 15) || major === 24;
}

function rerunOnSupportedNode(): number {
  log(
    `Node ${process.versions.node} is not one the service supports: running on Node ${BENCH_NODE}`,
  );
  const fetched = spawnSync(path.join(ROOT, ".ci", "node"), [BENCH_NODE], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (fetched.status !== 0) throw new BenchError(`.ci/node ${BENCH_NODE} failed`);
  const bin = fetched.stdout.trim();
  const rerun = spawnSync(path.join(bin, "node"), [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` },
  });
  return rerun.status ?? 1;
}

(supportedNode() ? main() : Promise.resolve(rerunOnSupportedNode())).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const expected = error instanceof BenchError || error instanceof ServerError;
    log(expected ? error.message : String((error as Error)?.stack ?? error));
    if (logDir) log(`the servers' stderr is kept in ${logDir}`);
    killAllNow();
    process.exit(1);
  },
);
