/**
 * Docker and compose from the deployment test: commands run asynchronously (the load
 * keeps going while they run), each bounded in time; requests made from inside a replica
 * (`docker exec … node -e fetch(…)`), which the balancer never routes.
 */
import { execFile, spawnSync } from "node:child_process";
import { Agent } from "node:http";
import { type HttpResult, httpGet, RequestFailure, ROOT, sleep } from "../process/helpers.js";

export interface Run {
  stdout: string;
  stderr: string;
}

/** Runs `command args`; rejects with its output when it fails or outlives `timeoutMs`. */
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd ?? ROOT,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 64 * 1024 * 1024,
        killSignal: "SIGKILL",
      },
      (error, stdout, stderr) => {
        if (error) {
          reject(
            new Error(
              `${command} ${args.join(" ")} failed: ${error.message}\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`,
            ),
          );
        } else resolve({ stdout, stderr });
      },
    );
  });
}

/** `docker compose` when the plugin is there, else Debian's `docker-compose` (v1). */
export function composeCommand(): string[] {
  const plugin = spawnSync("docker", ["compose", "version"], { stdio: "ignore", timeout: 10_000 });
  return plugin.status === 0 ? ["docker", "compose"] : ["docker-compose"];
}

/** A compose project: the repository's file plus the test's build override. */
export class Stack {
  private readonly compose = composeCommand();

  constructor(
    readonly project: string,
    readonly env: Record<string, string>,
  ) {}

  async run(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<Run> {
    const [command, ...prefix] = this.compose as [string, ...string[]];
    return run(
      command,
      [
        ...prefix,
        "-p",
        this.project,
        "-f",
        "docker-compose.yml",
        "-f",
        "test/deploy/compose.build.yml",
        ...args,
      ],
      { env: { ...process.env, ...this.env, ...env }, timeoutMs },
    );
  }

  /** The ids of the running containers of `service`. */
  async containers(service: string): Promise<string[]> {
    const { stdout } = await run("docker", [
      "ps",
      "-q",
      "--no-trunc",
      "--filter",
      `label=com.docker.compose.project=${this.project}`,
      "--filter",
      `label=com.docker.compose.service=${service}`,
    ]);
    return stdout.split("\n").filter(Boolean).sort();
  }
}

/** `docker inspect` of one container or image, typed as far as the caller reads it. */
export async function inspect<T>(id: string): Promise<T> {
  const { stdout } = await run("docker", ["inspect", id]);
  return (JSON.parse(stdout) as T[])[0] as T;
}

/** The container's health status (`healthy`, `starting`, `unhealthy`). */
export async function health(id: string): Promise<string> {
  const { stdout } = await run("docker", ["inspect", "-f", "{{.State.Health.Status}}", id]);
  return stdout.trim();
}

/** Waits until every container in `ids` reports healthy; false after `timeoutMs`. */
export async function waitHealthy(ids: string[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const states = await Promise.all(ids.map(health));
    if (states.every((state) => state === "healthy")) return true;
    await sleep(500);
  }
  return false;
}

export interface ReplicaAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A GET on the replica itself, from inside its container (node's fetch). */
export async function replicaGet(id: string, path: string, key: string): Promise<ReplicaAnswer> {
  const script =
    "fetch('http://127.0.0.1:3000'+process.argv[1],{headers:{'x-api-key':process.argv[2]}})" +
    ".then(async r=>process.stdout.write(JSON.stringify({status:r.status," +
    "headers:Object.fromEntries(r.headers),body:await r.text()})))";
  const { stdout } = await run("docker", ["exec", id, "node", "-e", script, path, key], {
    timeoutMs: 20_000,
  });
  return JSON.parse(stdout) as ReplicaAnswer;
}

/**
 * A request of any method on the replica itself, from inside its container: what the
 * balancer cannot do, reach one replica of several. `body` is sent as JSON.
 */
export async function replicaFetch(
  id: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<ReplicaAnswer> {
  const script =
    "const [p,m,h,b]=process.argv.slice(1);" +
    "fetch('http://127.0.0.1:3000'+p,{method:m,headers:JSON.parse(h),body:b||undefined})" +
    ".then(async r=>process.stdout.write(JSON.stringify({status:r.status," +
    "headers:Object.fromEntries(r.headers),body:await r.text()})))";
  const sent = body === undefined ? "" : JSON.stringify(body);
  const allHeaders =
    body === undefined ? headers : { "content-type": "application/json", ...headers };
  const { stdout } = await run(
    "docker",
    ["exec", id, "node", "-e", script, path, method, JSON.stringify(allHeaders), sent],
    { timeoutMs: 20_000 },
  );
  return JSON.parse(stdout) as ReplicaAnswer;
}

/** `count` GETs on the replica itself, one after another in one `docker exec`: their statuses. */
export async function replicaGetMany(
  id: string,
  path: string,
  key: string,
  count: number,
): Promise<number[]> {
  const script =
    "(async()=>{const s=[];for(let i=0;i<Number(process.argv[3]);i++){" +
    "const r=await fetch('http://127.0.0.1:3000'+process.argv[1],{headers:{'x-api-key':process.argv[2]}});" +
    "await r.arrayBuffer();s.push(r.status)}process.stdout.write(JSON.stringify(s))})()";
  const { stdout } = await run(
    "docker",
    ["exec", id, "node", "-e", script, path, key, String(count)],
    { timeoutMs: 30_000 },
  );
  return JSON.parse(stdout) as number[];
}

/** The replica's peak and current resident set (kB), from /proc/1/status. */
export async function replicaRss(id: string): Promise<{ rssKb: number; peakKb: number }> {
  const script =
    "const s=require('fs').readFileSync('/proc/1/status','utf8');" +
    "const kb=n=>Number(new RegExp(n+':\\\\s+(\\\\d+)').exec(s)[1]);" +
    "process.stdout.write(JSON.stringify({rssKb:kb('VmRSS'),peakKb:kb('VmHWM')}))";
  const { stdout } = await run("docker", ["exec", id, "node", "-e", script]);
  return JSON.parse(stdout) as { rssKb: number; peakKb: number };
}

// ---------------------------------------------------------------------------------------
// Load through the balancer

export interface LoadReport {
  requests: number;
  ok: number;
  /** Anything but a 200: statuses and socket errors, by name. */
  failures: Record<string, number>;
  failed: number;
  maxMs: number;
  ms: number;
}

/**
 * Steady load on `path` through the balancer at 127.0.0.1:`port`: `clients` keep-alive
 * loops, key `keys[i % keys.length]` for request i, until {@link Load.stop} or `maxMs`.
 */
export class Load {
  private stopped = false;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private readonly report: LoadReport = {
    requests: 0,
    ok: 0,
    failures: {},
    failed: 0,
    maxMs: 0,
    ms: 0,
  };
  private readonly done: Promise<void>;
  private readonly started = performance.now();

  constructor(port: number, path: string, keys: readonly string[], clients = 8, maxMs = 120_000) {
    const deadline = Date.now() + maxMs;
    const loop = async () => {
      while (!this.stopped && Date.now() < deadline) {
        const i = this.report.requests++;
        const key = keys[i % keys.length] as string;
        let result: HttpResult | undefined;
        try {
          result = await httpGet(port, path, {
            headers: { "x-api-key": key },
            agent: this.agent,
            timeoutMs: 15_000,
          });
        } catch (error) {
          this.fail(error instanceof RequestFailure ? error.code : String(error));
          continue;
        }
        this.report.maxMs = Math.max(this.report.maxMs, result.ms);
        if (result.status === 200) this.report.ok++;
        else this.fail(`HTTP ${result.status}`);
      }
    };
    this.done = Promise.all(Array.from({ length: clients }, loop)).then(() => undefined);
  }

  private fail(what: string): void {
    this.report.failed++;
    this.report.failures[what] = (this.report.failures[what] ?? 0) + 1;
  }

  async stop(): Promise<LoadReport> {
    this.stopped = true;
    await this.done;
    this.agent.destroy();
    this.report.ms = performance.now() - this.started;
    return { ...this.report, failures: { ...this.report.failures } };
  }
}

export function describeLoad(report: LoadReport): string {
  const rate = (report.requests / (report.ms / 1000)).toFixed(0);
  return (
    `${report.requests} requests in ${(report.ms / 1000).toFixed(1)} s (${rate}/s), ` +
    `${report.failed} failed ${JSON.stringify(report.failures)}, slowest ${report.maxMs.toFixed(0)} ms`
  );
}
