/**
 * Where the service's memory goes under the bench's loads (dev tool, not part of the bench):
 * starts the built service with the given node flags, runs service rows in turn (the bench's
 * order) in that one process, then the cheap-beside-costly row, with RSS sampled every
 * 100 ms from /proc. Per row: peak RSS, CPU µs per request (from /proc/<pid>/stat), and with
 * `--breakdown` the V8 heap by space (from /metrics) and RSS by mapping (from smaps). With
 * `--gc-log=<file>` the service runs with `--trace-gc` (LOG_LEVEL=warn, so the file holds
 * little else) and the probe sums what its mark-compacts freed per costly request and the
 * most V8 kept in its page pool (freed pages it keeps resident for reuse).
 *
 *   npx tsx bench/mem-probe.ts [--flags="…" (npm start's)] [--rows=rest-sum,…|none]
 *     [--fairness=3] [--seconds=4] [--env="NAME=value …" (npm start's; "" for none)] [--breakdown] [--gc-log=/tmp/gc.log]
 */
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startCommand } from "../scripts/lib/start-command.js";
import { loadOperations } from "../src/registry/loader.js";
import { measureFairness } from "./lib/fairness.js";
import { runLoad } from "./lib/load.js";
import {
  cpuTicks,
  RssSampler,
  rssKb,
  type Server,
  startNode,
  stopServer,
  waitReady,
} from "./lib/proc.js";
import { IDLE_SETTLE_MS, shippedEnv } from "./lib/shipped.js";
import { API_KEY, buildWorkloads } from "./lib/workload.js";

const START = startCommand();
const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Clock ticks per second of /proc's CPU times. */
const TICKS_PER_SECOND = 100;
const SERVICE_ROWS = "rest-sum,rest-mix,rest-10,graphql-1,graphql-10,graphql-10-sum,mcp-sum";

const { values } = parseArgs({
  options: {
    flags: {
      type: "string",
      default: START.nodeFlags.join(" "),
    },
    rows: { type: "string", default: SERVICE_ROWS },
    fairness: { type: "string", default: "3" },
    seconds: { type: "string", default: "4" },
    // npm start's variables; --env="" runs without them.
    env: {
      type: "string",
      default: Object.entries(START.env)
        .map(([name, value]) => `${name}=${value}`)
        .join(" "),
    },
    breakdown: { type: "boolean", default: false },
    "gc-log": { type: "string", default: "" },
  },
});
const seconds = Number(values.seconds);
const gcLog = values["gc-log"];
const flags = [...values.flags.split(/\s+/).filter(Boolean), ...(gcLog ? ["--trace-gc"] : [])];
const extraEnv: Record<string, string> = Object.fromEntries(
  values.env
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
);

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);

/** RSS by kind of mapping, MB: the node binary, malloc's arenas, other anonymous memory (V8's pages). */
function smapsByKind(pid: number): string {
  const lines = readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n");
  const maps: { start: number; end: number; perms: string; name: string; rssKb: number }[] = [];
  for (const line of lines) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      maps.push({
        start: Number.parseInt(head[1] ?? "0", 16),
        end: Number.parseInt(head[2] ?? "0", 16),
        perms: head[3] ?? "",
        name: head[4] ?? "",
        rssKb: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    const last = maps.at(-1);
    if (rss && last) last.rssKb = Number(rss[1]);
  }
  const kinds = new Map<string, number>();
  const add = (kind: string, kb: number) => kinds.set(kind, (kinds.get(kind) ?? 0) + kb);
  const ARENA = 64 * 1024 * 1024;
  maps.forEach((map, i) => {
    const next = maps[i + 1];
    if (map.name.endsWith("/node")) add("node binary", map.rssKb);
    else if (map.name === "[heap]") add("malloc main arena", map.rssKb);
    else if (map.name.startsWith("/")) add("other files", map.rssKb);
    else if (map.name !== "") add("other", map.rssKb);
    // A thread arena: 64 MB aligned, its unused tail reserved without access.
    else if (map.start % ARENA === 0 && next?.perms === "---p" && next.end - map.start === ARENA)
      add("malloc thread arenas", map.rssKb);
    else if (map.perms.includes("x")) add("V8 code", map.rssKb);
    else add("anonymous (V8 pages, large mallocs)", map.rssKb);
  });
  return [...kinds]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, kb]) => `${kind} ${mb(kb * 1024)}`)
    .join(", ");
}

/** V8's heap by space from the service's /metrics (prom-client's default metrics): used/committed MB. */
async function heapBySpace(origin: string): Promise<string> {
  const text = await (
    await fetch(`${origin}/metrics`, { headers: { "x-api-key": API_KEY } })
  ).text();
  const value = (name: string, space?: string) =>
    Number(
      new RegExp(`^${name}${space ? `\\{space="${space}"\\}` : ""} (\\d+)`, "m").exec(text)?.[1] ??
        0,
    );
  const spaces = ["new", "old", "code", "trusted", "large_object", "new_large_object"]
    .map(
      (space) =>
        `${space} ${mb(value("nodejs_heap_space_size_used_bytes", space))}/${mb(value("nodejs_heap_space_size_total_bytes", space))}`,
    )
    .join(", ");
  return `heap used/total ${mb(value("nodejs_heap_size_used_bytes"))}/${mb(value("nodejs_heap_size_total_bytes"))} (${spaces}), external ${mb(value("nodejs_external_memory_bytes"))}`;
}

/** Mark-compacts in the --trace-gc log, MB they freed, and the largest page pool reported. */
function gcSummary(file: string): { markCompacts: number; freedMb: number; maxPooledMb: number } {
  let markCompacts = 0;
  let freedMb = 0;
  let maxPooledMb = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const gc =
      /(Scavenge|Mark-Compact) ([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, pooled: (\d+)/.exec(
        line,
      );
    if (!gc) continue;
    maxPooledMb = Math.max(maxPooledMb, Number(gc[4]));
    if (gc[1] === "Mark-Compact") {
      markCompacts += 1;
      freedMb += Number(gc[2]) - Number(gc[3]);
    }
  }
  return { markCompacts, freedMb, maxPooledMb };
}

async function start(logDir: string): Promise<Server> {
  const script = path.join(ROOT, "dist", "src", "server.js");
  // As shipped (quota on), its key store in this run's temp dir, never the checkout's ./data.
  const env = {
    ...shippedEnv(path.join(logDir, "data")),
    ...(gcLog ? { LOG_LEVEL: "warn" } : {}),
    ...extraEnv,
  };
  // --trace-gc writes to stdout, which startNode sends to /dev/null: a shell sends it to the file.
  const server = await startNode({
    name: "service",
    ...(gcLog
      ? {
          command: "/bin/sh",
          args: ["-c", `exec "$0" "$@" > "${gcLog}"`, process.execPath, ...flags, script],
        }
      : { args: [...flags, script] }),
    env,
    logDir,
    cwd: ROOT,
  });
  await waitReady(server, { path: "/health" });
  // As the bench reads it: after the first idle look gave back what starting grew.
  await sleep(IDLE_SETTLE_MS);
  return server;
}

async function main(): Promise<void> {
  const operations = await loadOperations();
  const workloads = buildWorkloads(operations);
  const rows = values.rows === "none" ? [] : values.rows.split(",");
  const server = await start(await mkdtemp(path.join(os.tmpdir(), "ucs-mem-probe-")));
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const details = async () =>
    values.breakdown
      ? `\n    ${await heapBySpace(server.origin)}\n    RSS: ${smapsByKind(server.pid)}`
      : "";
  say(
    `node ${flags.join(" ")}${values.env ? ` (${values.env})` : ""}: idle RSS ${mb((rssKb(server.pid) ?? 0) * 1024)} MB, load average ${os.loadavg()[0]?.toFixed(2)}${await details()}`,
  );
  try {
    for (const name of rows) {
      const workload = workloads.find((w) => w.name === name);
      if (!workload) throw new Error(`no row ${name}`);
      await runLoad(server.origin, workload, { connections: 50, seconds: 1 });
      const sampler = new RssSampler(() => [server.pid]).start();
      const ticks = cpuTicks(server.pid);
      const load = await runLoad(server.origin, workload, { connections: 50, seconds });
      const cpuUs = ((cpuTicks(server.pid) - ticks) * 1e6) / TICKS_PER_SECOND / load.total;
      say(
        `${name.padEnd(19)} peak ${sampler.stop().maxProcessMb} MB  ${Math.round(load.requestsPerSecond)} req/s  p99 ${load.p99Ms} ms  CPU ${cpuUs.toFixed(0)} µs/request  non-2xx ${load.non2xx + load.errors}${await details()}`,
      );
    }
    let costly = 0;
    const before = gcLog ? gcSummary(gcLog) : undefined;
    for (let round = 1; round <= Number(values.fairness); round++) {
      const sampler = new RssSampler(() => [server.pid]).start();
      const result = await measureFairness(server.origin, operations, seconds);
      costly += result.costlyRequestsPerSecond * seconds;
      say(
        `cheap-beside-costly peak ${sampler.stop().maxProcessMb} MB  cheap p50 ${result.cheapP50Ms} p99 ${result.cheapP99Ms} ms  costly ${Math.round(result.costlyRequestsPerSecond)} req/s  non-2xx ${result.non2xx + result.errors}${await details()}`,
      );
    }
    if (gcLog && before && costly > 0) {
      const after = gcSummary(gcLog);
      say(
        `costly rounds: ${after.markCompacts - before.markCompacts} mark-compacts, ${((after.freedMb - before.freedMb) / costly).toFixed(2)} MB freed by them per costly request, page pool up to ${after.maxPooledMb} MB`,
      );
    }
    const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1];
    say(
      `VmHWM ${mb(Number(hwm) * 1024)} MB, load average ${os.loadavg()[0]?.toFixed(2)} (2 cores)`,
    );
  } finally {
    await stopServer(server);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
