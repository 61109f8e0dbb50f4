/**
 * Child processes for the benchmark: started on 127.0.0.1 at a free port, waited for
 * until they answer and sit idle, sampled for memory from /proc, and always stopped,
 * on success, failure, Ctrl-C or an uncaught error.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../../scripts/lib/free-port.js";
import { cpuTicks, rssKb } from "../../scripts/lib/proc-stats.js";

export { cpuTicks, freePort, rssKb };

export const HOST = "127.0.0.1";

export interface Server {
  name: string;
  child: ChildProcess;
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Where the child's stderr goes (its stdout goes to /dev/null). */
  stderrPath: string;
}

/** A server that would not start, or stopped answering: its message says why. */
export class ServerError extends Error {
  override name = "ServerError";
}

const live = new Set<Server>();
/** Every worker pid seen for a live server, killed with it if still there at exit. */
const knownDescendants = new Map<Server, Set<number>>();

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function killPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** Kills, at once, everything this module started that is still running (sync: for `exit`). */
export function killAllNow(): void {
  for (const server of live) {
    if (isRunning(server.child)) server.child.kill("SIGKILL");
    for (const pid of knownDescendants.get(server) ?? []) killPid(pid, "SIGKILL");
  }
  live.clear();
}

process.on("exit", killAllNow);

export interface StartOptions {
  name: string;
  /** Arguments to `node` (flags, then the script), or to `command`. */
  args: string[];
  /** The program to run; `node` (this one) by default. */
  command?: string;
  env: Record<string, string>;
  /** Folder for the child's stderr file. */
  logDir: string;
  cwd: string;
}

/** Starts `node <args>` (or `command <args>`) with PORT and HOST set; stdout to /dev/null, stderr to a file. */
export async function startNode(options: StartOptions): Promise<Server> {
  const port = await freePort();
  const stderrPath = path.join(options.logDir, `${options.name}.stderr.log`);
  const out = openSync("/dev/null", "w");
  const err = openSync(stderrPath, "w");
  const child = spawn(options.command ?? process.execPath, options.args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...options.env, HOST, PORT: String(port) },
    stdio: ["ignore", out, err],
  });
  closeSync(out);
  closeSync(err);
  if (child.pid === undefined) {
    await new Promise((resolve) => child.once("error", resolve));
    throw new Error(`${options.name}: could not start node`);
  }
  const server: Server = {
    name: options.name,
    child,
    pid: child.pid,
    port,
    origin: `http://${HOST}:${port}`,
    stderrPath,
  };
  live.add(server);
  knownDescendants.set(server, new Set());
  return server;
}

/** The last lines of a server's stderr, to explain a failure. */
export function stderrTail(server: Server, lines = 15): string {
  try {
    return readFileSync(server.stderrPath, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

/** The direct children of `pid`: from /proc/<pid>/task/<tid>/children, else by scanning /proc. */
export function childPids(pid: number): number[] {
  const taskDir = `/proc/${pid}/task`;
  try {
    const tasks = readdirSync(taskDir);
    const first = tasks[0];
    if (first !== undefined && existsSync(path.join(taskDir, first, "children"))) {
      return tasks.flatMap((tid) =>
        readFileSync(path.join(taskDir, tid, "children"), "utf8")
          .split(/\s+/)
          .filter(Boolean)
          .map(Number),
      );
    }
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // `pid (comm) state ppid …`: comm may hold spaces and parentheses; the last ')' ends it.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

/** Remembers `server`'s workers, so they are killed with it even if the primary is gone first. */
export function rememberWorkers(server: Server, pids: readonly number[]): void {
  const known = knownDescendants.get(server);
  for (const pid of pids) known?.add(pid);
}

/** CPU counters at one instant: the whole machine's, and `pids`' own (clock ticks). */
export interface CpuSnapshot {
  total: number;
  busy: number;
  ours: number;
}

export function cpuSnapshot(pids: readonly number[]): CpuSnapshot {
  // `cpu  user nice system idle iowait irq softirq steal guest guest_nice`
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { total, busy: total - idle, ours: pids.reduce((sum, pid) => sum + cpuTicks(pid), 0) };
}

/**
 * Cores used by processes other than `pids` between two snapshots (other work on the
 * machine, which perturbs the figures).
 */
export function otherCores(before: CpuSnapshot, after: CpuSnapshot, cores: number): number {
  const total = after.total - before.total;
  if (total <= 0) return 0;
  const other = Math.max(0, after.busy - before.busy - (after.ours - before.ours));
  return Math.round((other / total) * cores * 100) / 100;
}

/** Waits until the processes use under ~5% of a core over 500 ms (start-up work done). */
export async function waitIdle(pids: () => number[], timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let before = pids().reduce((sum, pid) => sum + cpuTicks(pid), 0);
  while (Date.now() < deadline) {
    await sleep(500);
    const after = pids().reduce((sum, pid) => sum + cpuTicks(pid), 0);
    // 100 ticks per second on Linux: 500 ms of one core is 50 ticks.
    if (after - before <= 2) return;
    before = after;
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Waits until `server` answers `GET <path>` with a 2xx (and, with `workers`, until that
 * many workers run), then until it is idle. Throws, with its stderr, if it exits or
 * `timeoutMs` passes first.
 */
export async function waitReady(
  server: Server,
  { path: probe = "/", workers = 0, timeoutMs = 30_000 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const failure = (why: string) =>
    new ServerError(`${server.name} ${why}.\n--- its stderr ---\n${stderrTail(server)}`);
  while (true) {
    if (!isRunning(server.child)) {
      throw failure(
        `exited (code ${server.child.exitCode}, signal ${server.child.signalCode}) before answering`,
      );
    }
    const found = workers > 0 ? childPids(server.pid) : [];
    rememberWorkers(server, found);
    if (found.length >= workers && (await answers(`${server.origin}${probe}`))) break;
    if (Date.now() > deadline) throw failure(`did not answer ${probe} within ${timeoutMs} ms`);
    await sleep(100);
  }
  await waitIdle(() => [server.pid, ...(workers > 0 ? childPids(server.pid) : [])]);
}

/** SIGTERM, then SIGKILL (the process and its workers) if it has not exited in `graceMs`. */
export async function stopServer(server: Server, graceMs = 15_000): Promise<number | null> {
  const { child } = server;
  if (isRunning(child)) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = sleep(graceMs).then(() => "timeout" as const);
    if ((await Promise.race([exited, timer])) === "timeout") child.kill("SIGKILL");
    await exited;
  }
  for (const pid of knownDescendants.get(server) ?? []) killPid(pid, "SIGKILL");
  knownDescendants.delete(server);
  live.delete(server);
  return child.exitCode;
}

export interface RssPeak {
  /** Highest sum over the sampled processes at one instant, MB. */
  totalMb: number;
  /** Highest single process, MB. */
  maxProcessMb: number;
  /** Peak per pid, MB. */
  byPid: Record<string, number>;
  samples: number;
}

/**
 * Samples VmRSS of `pids()` every `intervalMs` until stopped. `pids` is asked again every
 * second, so a replaced worker is followed.
 */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  private current: number[] = [];
  private lastLookup = 0;
  private peakTotalKb = 0;
  private readonly peakByPid = new Map<number, number>();
  private samples = 0;

  constructor(
    private readonly pids: () => number[],
    private readonly intervalMs = 100,
  ) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    return this;
  }

  private sample(): void {
    const now = Date.now();
    if (now - this.lastLookup >= 1000) {
      this.current = this.pids();
      this.lastLookup = now;
    }
    let total = 0;
    for (const pid of this.current) {
      const kb = rssKb(pid);
      if (kb === undefined) continue;
      total += kb;
      this.peakByPid.set(pid, Math.max(this.peakByPid.get(pid) ?? 0, kb));
    }
    this.peakTotalKb = Math.max(this.peakTotalKb, total);
    this.samples += 1;
  }

  stop(): RssPeak {
    if (this.timer) clearInterval(this.timer);
    this.sample();
    const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;
    return {
      totalMb: mb(this.peakTotalKb),
      maxProcessMb: mb(Math.max(0, ...this.peakByPid.values())),
      byPid: Object.fromEntries([...this.peakByPid].map(([pid, kb]) => [String(pid), mb(kb)])),
      samples: this.samples,
    };
  }
}

/**
 * Pins process `pid` and its threads to CPU `cpu` (taskset); threads it starts later
 * inherit the pin. False when that cannot be done (no taskset, no such CPU).
 */
export function pinToCpu(pid: number, cpu: number): boolean {
  const result = spawnSync("taskset", ["-a", "-cp", String(cpu), String(pid)], { stdio: "ignore" });
  return result.status === 0;
}
