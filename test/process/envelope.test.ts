/**
 * The service's envelope under load, measured on the built service started as `npm start`
 * starts it (its node flags and malloc settings), with production settings: NODE_ENV,
 * API keys, the per-key and auth-failure quotas of docker-compose.yml, LOG_LEVEL=info.
 *
 * - Fairness: beside four connections looping the costliest legal FizzBuzz (~3.2 MB of
 *   JSON each), a cheap client's p99 stays under 50 ms.
 * - Memory: through a minute of mixed load (valid, invalid, unknown-path, wrong-key, GraphQL and
 *   never-seen GraphQL documents, and that FizzBuzz), peak RSS stays under 150 MB, and the
 *   V8 heap returns within 20 MB of its post-start figure once the load stops (the
 *   process's own idle-time collection; nothing here forces one).
 *
 * The load comes from this process over node:http keep-alive agents, reading the answers
 * without keeping them; the service's log goes to a file, as a container's would.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { statusKb } from "../../scripts/lib/proc-stats.js";
import { freePort, HOST, quantile, ROOT, START, sleep, waitFor } from "./helpers.js";

/** Keys enough that the per-key quota (600 a minute, as in docker-compose.yml) never binds. */
const KEYS = Array.from(
  { length: 256 },
  (_, i) => `envelope-key-${String(i).padStart(3, "0")}-0123456789abcdefghij`,
);
const METRICS_TOKEN = "envelope-metrics-token-0123456789abcdef";
/** The costliest legal FizzBuzz: 10,000 items, each all ten 32-character words (divisor 1). */
const COSTLY_PATH = `/v1/misc/fizzbuzz?start=1&end=10000&rules=${Array.from(
  { length: 10 },
  (_, i) => `1:${String.fromCharCode(65 + i).repeat(32)}`,
).join(",")}`;
const CHEAP_PATH = "/v1/math/sum?numbers=1,2";

const CHEAP_P99_MS = 50;
const PEAK_RSS_MB = 150;
const HEAP_RETURN_MB = 20;
/** How long the mixed load runs: issue 31's minute. */
const MIXED_LOAD_MS = 60_000;
const MB = 1024 * 1024;

let nextKey = 0;
const key = () => KEYS[nextKey++ % KEYS.length] as string;

interface Answer {
  status: number;
  bytes: number;
  ms: number;
}

/** One request; the answer is counted, not kept. */
function send(
  port: number,
  agent: Agent | false,
  path: string,
  headers: Record<string, string>,
  options: { method?: string; body?: string; localAddress?: string } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: HOST,
        port,
        path,
        agent,
        headers,
        method: options.method ?? "GET",
        localAddress: options.localAddress,
      },
      (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - started }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer to ${path} in 15 s`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The built service, as `npm start` runs it; its log goes to a file. */
class Built {
  readonly child: ChildProcess;
  readonly logFile: string;
  exited = false;

  constructor(
    readonly port: number,
    dir: string,
  ) {
    this.logFile = path.join(dir, `service-${port}.log`);
    const log = openSync(this.logFile, "w");
    const env: Record<string, string> = { ...START.env };
    for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
    Object.assign(env, {
      HOST,
      PORT: String(port),
      NODE_ENV: "production",
      API_KEYS: KEYS.join(","),
      RATE_LIMIT: "600",
      RATE_LIMIT_WINDOW: "60",
      AUTH_FAILURE_LIMIT: "30",
      AUTH_FAILURE_WINDOW: "60",
      METRICS_TOKEN,
      LOG_LEVEL: "info",
      DATA_DIR: path.join(dir, "data"),
    });
    this.child = spawn(process.execPath, [...START.nodeFlags, "dist/src/server.js"], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ["ignore", log, log],
    });
    closeSync(log);
    this.child.on("exit", () => {
      this.exited = true;
    });
    started.push(this);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** The end of the service's log, for failure messages. */
  log(lastChars = 3000): string {
    try {
      return readFileSync(this.logFile, "utf8").slice(-lastChars);
    } catch {
      return "";
    }
  }

  kill(): void {
    try {
      process.kill(-this.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }

  /** The V8 heap in use, in MB, as /metrics reports it. */
  async heapUsedMb(): Promise<number> {
    const text = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: HOST,
          port: this.port,
          path: "/metrics",
          agent: false,
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            body += chunk;
          });
          res.on("end", () => resolve(body));
        },
      );
      req.on("error", reject);
      req.end();
    });
    const match = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(text);
    if (!match)
      throw new Error(`no nodejs_heap_size_used_bytes in /metrics:\n${text.slice(0, 500)}`);
    return Number(match[1]) / MB;
  }

  /** Resident memory now and at its peak since start, in MB (/proc). */
  residentMb(): { now: number; peak: number } {
    return {
      now: (statusKb(this.pid, "VmRSS") ?? Number.NaN) / 1024,
      peak: (statusKb(this.pid, "VmHWM") ?? Number.NaN) / 1024,
    };
  }
}

const started: Built[] = [];
let dir = "";

beforeAll(() => {
  // What `npm start` runs is dist/: built from this tree first (prestart does the same).
  const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`npm run build failed\n${build.stdout}${build.stderr}`);
  dir = mkdtempSync(path.join(os.tmpdir(), "ucs-envelope-"));
}, 120_000);

afterAll(() => {
  for (const service of started) service.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function startBuilt(): Promise<Built> {
  const service = new Built(await freePort(), dir);
  const healthy = await waitFor(async () => {
    if (service.exited) return true;
    try {
      return (await send(service.port, false, "/health", {})).status === 200;
    } catch {
      return false;
    }
  }, 20_000);
  if (!healthy || service.exited) throw new Error(`the service did not start\n${service.log()}`);
  return service;
}

it("answers a cheap client within 50 ms p99 beside four clients looping the costliest FizzBuzz", async () => {
  const service = await startBuilt();
  const costlyAgent = new Agent({ keepAlive: true, maxSockets: 4 });
  const cheapAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const first = await send(service.port, costlyAgent, COSTLY_PATH, { "x-api-key": key() });
  expect(first.status).toBe(200);
  expect(first.bytes).toBeGreaterThan(3_000_000);
  // Warm-up: both paths compiled and optimised before anything is measured.
  for (let i = 0; i < 10; i++)
    await send(service.port, costlyAgent, COSTLY_PATH, { "x-api-key": key() });
  for (let i = 0; i < 200; i++)
    await send(service.port, cheapAgent, CHEAP_PATH, { "x-api-key": key() });

  // Three rounds: the machine is shared, and a neighbour's compile can take a round's
  // CPU; a queue behind large answers shows in every round, so the best round must pass.
  const rounds: { p50: number; p99: number; cheap: number; costly: number }[] = [];
  const statuses = new Set<number>();
  for (let round = 0; round < 3; round++) {
    let stop = false;
    let costly = 0;
    const loops = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const answer = await send(service.port, costlyAgent, COSTLY_PATH, { "x-api-key": key() });
        statuses.add(answer.status);
        costly++;
      }
    });
    const ms: number[] = [];
    const until = performance.now() + 5000;
    while (performance.now() < until) {
      const answer = await send(service.port, cheapAgent, CHEAP_PATH, { "x-api-key": key() });
      statuses.add(answer.status);
      ms.push(answer.ms);
    }
    stop = true;
    await Promise.all(loops);
    rounds.push({ p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), cheap: ms.length, costly });
  }
  costlyAgent.destroy();
  cheapAgent.destroy();
  console.log(
    `[envelope] cheap client beside 4 costly FizzBuzz loops, per 5 s round: ${rounds
      .map(
        (r) =>
          `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.cheap} cheap, ${r.costly} costly)`,
      )
      .join("; ")}`,
  );
  expect([...statuses]).toEqual([200]);
  expect(Math.min(...rounds.map((r) => r.p99)), service.log()).toBeLessThan(CHEAP_P99_MS);
}, 60_000);

/** Loopback addresses the wrong-key clients come from: the auth-failure quota is per address. */
const STRANGERS = Array.from({ length: 200 }, (_, i) => `127.0.1.${i + 1}`);

it(
  "keeps RSS under 150 MB through a mixed load and returns to its post-start heap after it",
  async () => {
    const service = await startBuilt();
    await sleep(500);
    const heapAtStart = await service.heapUsedMb();
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const json = { "content-type": "application/json" };
    const graphql = (query: string) =>
      send(
        service.port,
        agent,
        "/graphql",
        { ...json, "x-api-key": key() },
        { method: "POST", body: JSON.stringify({ query }) },
      );
    const tasks: ((i: number) => Promise<Answer>)[] = [
      (i) => send(service.port, agent, `/v1/math/sum?numbers=${i},0.5`, { "x-api-key": key() }),
      (i) => send(service.port, agent, `/v1/math/sum?numbers=${i},x`, { "x-api-key": key() }),
      (i) => send(service.port, agent, `/v1/unknown/path-${i}?n=${i}`, { "x-api-key": key() }),
      (i) =>
        send(
          service.port,
          false,
          CHEAP_PATH,
          { "x-api-key": `wrong-${i}` },
          {
            localAddress: STRANGERS[i % STRANGERS.length],
          },
        ),
      () => graphql('{ math { sum(numbers: ["1", "2"]) { count } } }'),
      // A document never seen before, every time.
      (i) => graphql(`query Q${i} { s${i}: math { sum(numbers: ["${i}", "2"]) { count } } }`),
      () => send(service.port, agent, COSTLY_PATH, { "x-api-key": key() }),
    ];
    const counts = new Map<string, number>();
    let peakSampled = 0;
    const sampler = setInterval(() => {
      peakSampled = Math.max(peakSampled, service.residentMb().now);
    }, 100);
    let next = 0;
    const until = performance.now() + MIXED_LOAD_MS;
    try {
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (performance.now() < until && next < 200_000) {
            const i = next++;
            const answer = await (tasks[i % tasks.length] as (i: number) => Promise<Answer>)(i);
            const name = `${i % tasks.length}:${answer.status}`;
            counts.set(name, (counts.get(name) ?? 0) + 1);
          }
        }),
      );
    } finally {
      clearInterval(sampler);
      agent.destroy();
    }
    const atEnd = { heap: await service.heapUsedMb(), rss: service.residentMb() };

    // The process's own collection, once it sees the load gone: polled, never forced.
    let heap = atEnd.heap;
    const settled = await waitFor(
      async () => {
        heap = await service.heapUsedMb();
        return heap <= heapAtStart + HEAP_RETURN_MB;
      },
      20_000,
      1000,
    );
    const rss = service.residentMb();
    console.log(
      `[envelope] mixed load, ${next} requests in ${MIXED_LOAD_MS / 1000} s (task:status ${JSON.stringify(Object.fromEntries(counts))}): ` +
        `heap ${heapAtStart.toFixed(1)} MB after start, ${atEnd.heap.toFixed(1)} MB at the end of the load, ` +
        `${heap.toFixed(1)} MB after it${settled ? "" : " (not settled in 20 s)"}; ` +
        `RSS peak ${rss.peak.toFixed(1)} MB (sampled ${peakSampled.toFixed(1)}), ${rss.now.toFixed(1)} MB now`,
    );
    expect(service.exited, service.log()).toBe(false);
    expect(rss.peak).toBeLessThan(PEAK_RSS_MB);
    expect(heap).toBeLessThanOrEqual(heapAtStart + HEAP_RETURN_MB);
  },
  MIXED_LOAD_MS + 50_000,
);
