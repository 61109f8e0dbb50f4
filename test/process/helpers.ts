/**
 * Process-level test support: the service started as a real process
 * (`node --import tsx src/server.ts`), a throwaway redis-server, free ports, plain
 * node:http requests that report how they failed, and a bounded load loop.
 *
 * Every process started here is recorded; {@link stopAll} kills whatever is still
 * running (the whole process group, so cluster workers too). Call it in `afterAll`.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { type Agent, type IncomingHttpHeaders, request } from "node:http";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../scripts/lib/free-port.js";
import { cpuTicks, statusKb } from "../../scripts/lib/proc-stats.js";
import { type StartCommand, startCommand } from "../../scripts/lib/start-command.js";

export { freePort };

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const HOST = "127.0.0.1";

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** True when `command --version` runs. */
export function commandExists(command: string): boolean {
  const result = spawnSync(command, ["--version"], { stdio: "ignore", timeout: 5000 });
  return !result.error && result.status === 0;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A child process with its output captured. */
export class Proc {
  readonly child: ChildProcess;
  stdout = "";
  stderr = "";
  exit: Exit | undefined;
  readonly exited: Promise<Exit>;

  constructor(
    readonly name: string,
    command: string,
    args: string[],
    env: Record<string, string>,
  ) {
    // Its own process group, so stopping it also stops anything it forked.
    this.child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: "pipe" });
    this.child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      this.stdout += chunk;
    });
    this.child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      this.child.on("exit", (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
      this.child.on("error", (error) => {
        this.stderr += String(error);
        this.exit = { code: null, signal: null };
        resolve(this.exit);
      });
    });
    started.add(this);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** Sends `signal` to this process only (not its group). */
  signal(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /** The exit, or undefined if the process is still running after `timeoutMs`. */
  async waitExit(timeoutMs: number): Promise<Exit | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGKILLs the process group (the process and its children) and waits for the exit. */
  async kill(): Promise<void> {
    try {
      process.kill(-this.pid, "SIGKILL");
    } catch {
      // Group already gone.
    }
    if (this.running) await this.waitExit(5000);
  }

  /** What the process printed, for failure messages. */
  output(lastChars = 4000): string {
    return `--- ${this.name} stdout ---\n${this.stdout.slice(-lastChars)}\n--- ${this.name} stderr ---\n${this.stderr.slice(-lastChars)}`;
  }
}

const started = new Set<Proc>();

/**
 * Kills every process group started by this module (a primary that exited may have left
 * workers behind), then forgets them.
 */
export async function stopAll(): Promise<void> {
  const procs = [...started];
  started.clear();
  await Promise.all(procs.map((proc) => proc.kill()));
}

/** The environment of a child: PATH and friends, nothing from the test runner (NODE_ENV=test…). */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export type LogLine = Record<string, unknown> & { msg?: string; pid?: number };

/** The service, started as a real process. */
export class Server extends Proc {
  constructor(
    readonly port: number,
    env: Record<string, string>,
    name = `server:${port}`,
    /** Flags for node itself, such as the heap caps of `npm start` ({@link START}). */
    nodeFlags: readonly string[] = [],
  ) {
    super(name, process.execPath, [...nodeFlags, "--import", "tsx", "src/server.ts"], {
      ...baseEnv(),
      HOST,
      PORT: String(port),
      // Its own key store, never the checkout's ./data.
      DATA_DIR: mkdtempSync(join(tmpdir(), "ucs-data-")),
      ...env,
    });
  }

  /** The JSON lines of stdout (other lines, such as the generated-key notice, skipped). */
  logs(): LogLine[] {
    const lines: LogLine[] = [];
    for (const line of this.stdout.split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        // A line still being written.
      }
    }
    return lines;
  }

  logged(msg: string): LogLine[] {
    return this.logs().filter((line) => line.msg === msg);
  }

  get(path: string, options: GetOptions = {}): Promise<HttpResult> {
    return httpGet(this.port, path, options);
  }
}

export interface StartOptions {
  /** Bounded wait for GET /health to answer 200. */
  readyTimeoutMs?: number;
  /** Flags for node itself (heap caps). */
  nodeFlags?: readonly string[];
}

/** How package.json's `start` script runs node: malloc's settings and the heap caps and V8 flags. */
export const START: StartCommand = startCommand();

/** CPU time a process has used so far (user + system), in ms, at /proc's 10 ms resolution. */
export function cpuMs(pid: number): number {
  return cpuTicks(pid) * 10;
}

/** Peak and current resident memory of a process, in MB (from /proc). */
export function residentMb(pid: number): { peak: number; now: number } {
  const kb = (field: string) => statusKb(pid, field) ?? Number.NaN;
  return { peak: kb("VmHWM") / 1024, now: kb("VmRSS") / 1024 };
}

/** Starts the service with `env` on a free port and waits until GET /health answers 200. */
export async function startServer(
  env: Record<string, string>,
  options: StartOptions = {},
): Promise<Server> {
  const server = new Server(
    await freePort(),
    { LOG_LEVEL: "info", ...env },
    undefined,
    options.nodeFlags,
  );
  await waitHealthy(server, options.readyTimeoutMs ?? 20_000);
  return server;
}

/** Polls GET /health until 200; throws with the process output if it exits or time runs out. */
export async function waitHealthy(server: Server, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!server.running) {
      throw new Error(`${server.name} exited (${JSON.stringify(server.exit)})\n${server.output()}`);
    }
    try {
      const response = await server.get("/health", { agent: false, timeoutMs: 1000 });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(50);
  }
  throw new Error(`${server.name} not healthy after ${timeoutMs} ms\n${server.output()}`);
}

/** Polls `condition` every `intervalMs` until true; false when `timeoutMs` passes. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  intervalMs = 50,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(intervalMs);
  }
  return condition();
}

// ---------------------------------------------------------------------------------------
// HTTP

export interface GetOptions {
  headers?: Record<string, string>;
  /** A keep-alive agent, or false for a fresh connection (default: a fresh connection). */
  agent?: Agent | false;
  timeoutMs?: number;
}

export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  ms: number;
}

/** How a request failed: `code` (ECONNREFUSED, ECONNRESET…) and how far it had got. */
export class RequestFailure extends Error {
  constructor(
    readonly code: string,
    readonly stage: {
      /** The socket had connected. */
      connected: boolean;
      /** The socket was a kept-alive one, reused from an earlier request. */
      reused: boolean;
      /** The request was flushed to the socket before the failure. */
      written: boolean;
      /** Response headers had arrived. */
      responded: boolean;
    },
    message: string,
    /** The system call that failed (`read` for a reset), if any. */
    readonly syscall?: string,
  ) {
    super(message);
  }
}

/** A GET to 127.0.0.1:`port`; rejects with a {@link RequestFailure}. */
export function httpGet(port: number, path: string, options: GetOptions = {}): Promise<HttpResult> {
  const start = performance.now();
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const stage = { connected: false, reused: false, written: false, responded: false };
    const fail = (error: NodeJS.ErrnoException) =>
      reject(
        new RequestFailure(error.code ?? "EUNKNOWN", { ...stage }, error.message, error.syscall),
      );
    const req = request(
      { host: HOST, port, path, method: "GET", headers: options.headers, agent: options.agent },
      (res) => {
        stage.responded = true;
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            ms: performance.now() - start,
          }),
        );
        res.on("aborted", () =>
          fail(Object.assign(new Error("response aborted"), { code: "EABORTED" })),
        );
        res.on("error", fail);
      },
    );
    req.on("socket", (socket) => {
      stage.reused = req.reusedSocket;
      if (!socket.connecting) stage.connected = true;
      else
        socket.once("connect", () => {
          stage.connected = true;
        });
    });
    req.on("finish", () => {
      stage.written = true;
    });
    req.setTimeout(timeoutMs, () =>
      req.destroy(
        Object.assign(new Error(`no response in ${timeoutMs} ms`), { code: "ETIMEDOUT" }),
      ),
    );
    req.on("error", fail);
    req.end();
  });
}

/** The `r` (remaining) of a `RateLimit` header field: `"per-key";r=9;t=60` → 9. */
export function remainingOf(result: HttpResult): number | undefined {
  const field = result.headers.ratelimit;
  const match = typeof field === "string" ? /;r=(\d+)/.exec(field) : null;
  return match ? Number(match[1]) : undefined;
}

/** The value of an unlabelled or summed counter in Prometheus text: every sample added. */
export function metricTotal(text: string, name: string, labelsInclude = ""): number {
  let total = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== " " && rest[0] !== "{") continue;
    if (labelsInclude && !rest.includes(labelsInclude)) continue;
    total += Number(line.split(" ").pop());
  }
  return total;
}

/** The `q`-quantile (0..1) of `values`, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

// ---------------------------------------------------------------------------------------
// Load

export interface LoadOptions {
  /** Concurrent clients, each running `task` in a loop. */
  clients: number;
  /** Stop after this many tasks in all (bounded in count)… */
  maxRequests: number;
  /** …or after this long (bounded in time)… */
  maxMs: number;
  /** …or once this is true. */
  stopWhen?: () => boolean;
  /** One request; `i` counts from 0 across all clients. A rejection stops the load. */
  task: (i: number, client: number) => Promise<void>;
}

/** Runs `task` from `clients` concurrent loops until a bound is hit; returns how many ran. */
export async function runLoad(options: LoadOptions): Promise<number> {
  const deadline = Date.now() + options.maxMs;
  let started = 0;
  const loop = async (client: number) => {
    while (started < options.maxRequests && Date.now() < deadline && !options.stopWhen?.()) {
      await options.task(started++, client);
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, client) => loop(client)));
  return started;
}

// ---------------------------------------------------------------------------------------
// Redis

/** redis-server on `port`, without persistence; resolves once it answers PING. */
export async function startRedis(port: number): Promise<Proc> {
  const redis = new Proc(
    `redis:${port}`,
    "redis-server",
    ["--port", String(port), "--bind", HOST, "--save", "", "--appendonly", "no"],
    baseEnv(),
  );
  const ok = await waitFor(async () => !redis.running || (await redisPing(port)), 10_000);
  if (!ok || !redis.running) throw new Error(`redis-server did not start\n${redis.output()}`);
  return redis;
}

/** True when a Redis on `port` answers PING with PONG. */
export function redisPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port });
    let reply = "";
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) done(reply.startsWith("+PONG"));
    });
  });
}

export interface SlowResult {
  /** The status of a complete response (headers and the whole body), else undefined. */
  status?: number;
  /** The socket error, if any (ECONNRESET…); none with no response means the server closed. */
  error?: string;
  raw: string;
}

/**
 * A GET over a raw socket that sends its request line, then waits `pauseMs` before the
 * rest of the headers: a request the server has begun to read and cannot answer yet.
 */
export function slowGet(
  port: number,
  path: string,
  headers: Record<string, string>,
  pauseMs: number,
  timeoutMs = 10_000,
): Promise<SlowResult> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port });
    let raw = "";
    let error: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      const head = raw.indexOf("\r\n\r\n");
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(raw)?.[1];
      const length = /\r\ncontent-length: (\d+)\r\n/i.exec(raw.slice(0, head + 2))?.[1];
      const complete =
        head >= 0 &&
        status !== undefined &&
        length !== undefined &&
        Buffer.byteLength(raw.slice(head + 4)) >= Number(length);
      resolve({ status: complete ? Number(status) : undefined, error, raw });
    };
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      raw += chunk;
    });
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on("close", finish);
    socket.on("connect", () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${HOST}:${port}\r\n`);
      timer = setTimeout(() => {
        const rest = Object.entries({ ...headers, connection: "close" })
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join("");
        socket.write(`${rest}\r\n`);
        timer = setTimeout(() => socket.destroy(), timeoutMs);
      }, pauseMs);
    });
  });
}
