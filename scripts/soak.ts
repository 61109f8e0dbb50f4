/**
 * Soak test: starts the service as a child process (`node --import tsx src/server.ts`),
 * drives a bounded mix of traffic at it for DURATION seconds over CONNECTIONS keep-alive
 * connections, and samples the child's memory from outside once a second: RSS from
 * /proc/<pid>/status, heap from GET /metrics (prom-client's nodejs_heap_size_used_bytes).
 *
 * The mix: every example of every operation (REST, URLs built from the registry), GraphQL
 * batches written from the same examples, and invalid requests (no key, wrong key,
 * unknown path, bad parameters, wrong method, bad GraphQL, over-long lists).
 *
 *   npx tsx scripts/soak.ts                  # 300 s, 20 connections
 *   DURATION=180 CONNECTIONS=20 npx tsx scripts/soak.ts
 *   npx tsx scripts/soak.ts --duration 60 --connections 10 --warmup 10
 *
 * Writes artifacts/soak-summary.json and artifacts/soak-summary.md; exits 1 on any 5xx,
 * any error logged by the service, or heap growth over the limit below.
 *
 * Memory is read from outside only (no --expose-gc, no forced collections), so garbage
 * must be told from growth:
 *
 * - The service runs with a 128 MB old space (`--max-old-space-size=128`, a container
 *   budget for its ~35-75 MB working set; OLD_SPACE_MB=0 for V8's default). With V8's
 *   default limit, sized from the machine's memory, heap used swings widely between major
 *   collections (measured here: ~40 → 150 MB every ~5 s at 7,900 requests/s, and
 *   ~75 → 270 MB every ~45 s on an earlier, slower build), so a short run may see no major
 *   collection at all. The cap makes them come every few seconds, and a leak under it
 *   ends in an out-of-memory crash, which fails the soak too.
 * - Growth is judged on the old generation's post-GC floor: the old and large-object
 *   spaces only (nodejs_heap_space_size_used_bytes; the young generation, emptied by
 *   every scavenge, and the code space, which grows while the JIT warms up, are left
 *   out). The post-warm-up samples are cut into major-GC cycles (by
 *   nodejs_gc_duration_seconds_count{kind="major"}; a cycle lasts at least 3 s, since at
 *   thousands of requests/s V8 may collect every second) and the lowest value of each
 *   cycle is a floor. Without 3 cycles, each 10 s window's minimum stands in.
 * - The limit applies to sustained growth: the least-squares slope of the floors minus
 *   twice its standard error. The plain least-squares slopes of RSS and heap used over
 *   every post-warm-up sample are reported too.
 *
 * The limit, HEAP_GROWTH_LIMIT_MB_PER_MIN = 10: the service is stateless (nothing is kept
 * per request; its maps are bounded by metric label values and API keys), so its floor
 * should be flat; 10 MB/min sustained would fill a 512 MB container within the hour, and
 * at the 4,000-8,000 requests/s this drives it is a leak of only 20-40 bytes per request.
 * Measured: a 180 s run of this service, floor 0.1 MB/min; 30 s runs, slopes -5 to +7
 * MB/min with standard errors of 3-6 (sustained -17 to -5: no false alarm). A leak
 * injected into the service at ~20 MB/min read 20.4 ± 0.6 MB/min over 120 s (fails), but
 * 16 ± 6 over a 30 s run (passes): the CI run catches gross leaks (~40 MB/min and more),
 * the 3-5 minute run resolves the limit.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chargedCost } from "../src/core/budget.js";
import { pathOf } from "../src/core/path.js";
import { exampleQuery } from "../src/graphql/examples.js";
import { buildGraphqlSchema } from "../src/graphql/schema.js";
import { REQUEST_BUDGET } from "../src/kit/cost.js";
import type { AnyOperation } from "../src/kit/define.js";
import { loadOperations } from "../src/registry/loader.js";
import { freePort } from "./lib/free-port.js";
import { isJsonObject } from "./lib/json-body.js";
import { rssKb } from "./lib/proc-stats.js";
import { queryOf } from "./lib/query.js";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const HOST = "127.0.0.1";
const MB = 1024 * 1024;

/** Heap growth (of the post-GC floor) above which the soak fails. See the header. */
export const HEAP_GROWTH_LIMIT_MB_PER_MIN = 10;
/** The service's old-space limit unless told otherwise. See the header. */
export const DEFAULT_OLD_SPACE_MB = 128;
/** The shortest major-GC cycle whose lowest sample counts as a floor. */
const FLOOR_MIN_SPAN_S = 3;
/** Without 3 such cycles after the warm-up, the floor is each window's minimum. */
const FLOOR_WINDOW_S = 10;

export interface SoakOptions {
  /** Seconds of traffic, warm-up included. */
  durationSeconds: number;
  /** Concurrent keep-alive connections (one request loop each). */
  connections: number;
  /** Seconds of traffic before "start" is measured. */
  warmupSeconds: number;
  /** The service's V8 old-space limit (`--max-old-space-size`) in MB; 0: V8's default. */
  oldSpaceMB?: number;
  /** More arguments for the service's `node` (before `--import tsx`), e.g. `--inspect`. */
  nodeArgs?: string[];
  /** Where to write soak-summary.{json,md}; none: nothing is written. */
  artifactsDir?: string;
  /** Progress lines; silent by default. */
  log?: (line: string) => void;
}

export interface MemoryFigures {
  startMB: number;
  maxMB: number;
  endMB: number;
  /** Least-squares slope over every post-warm-up sample. */
  slopeMBPerMin: number;
}

/** The old generation's post-GC floor: what the growth limit applies to. */
export interface FloorFigures {
  /** How the floors were found, and how many. */
  method: "major-gc-cycles" | "windows";
  points: number;
  firstMB: number;
  lastMB: number;
  /** Least-squares slope of the floors. */
  slopeMBPerMin: number;
  /** Its standard error (from the residuals). */
  standardErrorMBPerMin: number;
  /** slope − 2 × standard error: growth at least this fast is sustained, not noise. */
  sustainedMBPerMin: number;
}

export interface SoakSummary {
  startedAt: string;
  options: {
    durationSeconds: number;
    connections: number;
    warmupSeconds: number;
    /** The service's --max-old-space-size; 0: V8's default. */
    oldSpaceMB: number;
  };
  node: string;
  requests: {
    sent: number;
    answered: number;
    /** Requests that failed at the socket (no status). */
    failed: number;
    perSecond: number;
    statuses: Record<string, number>;
    byKind: Record<string, number>;
    serverErrors: number;
    /** Error answers (status ≥ 400) whose body is not a JSON object: every error has one. */
    errorsWithoutJsonBody: number;
    /** Requests whose status was not the one their kind expects. */
    unexpected: number;
    unexpectedExamples: string[];
    latencyMs: { p50: number; p99: number; max: number };
  };
  samples: number;
  postWarmupSamples: number;
  rss: MemoryFigures;
  heapUsed: MemoryFigures;
  oldGenerationFloor: FloorFigures;
  heapLimitMBPerMin: number;
  /** Lines the service logged at level error or above (faults). */
  serviceErrorLogs: number;
  serviceExit: { code: number | null; signal: string | null } | null;
  passed: boolean;
  failures: string[];
}

interface Sample {
  t: number;
  rssMB: number;
  heapUsedMB: number;
  /** Major (mark-compact) GCs so far. */
  majorGcs: number;
  /** Old and large-object spaces: where retained objects live (no young, no code). */
  oldMB: number;
  /** Code space: grows while the JIT warms up. */
  codeMB: number;
}

/** One request of the mix: what to send and which status it must get. */
interface Shot {
  kind: string;
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
  expect: number[];
}

// ---------------------------------------------------------------------------------------
// The traffic mix

/**
 * The shots, weighted by repetition: REST examples (~70 %), GraphQL batches (~15 %),
 * invalid requests (~15 %).
 */
export function buildMix(operations: readonly AnyOperation[], key: string): Shot[] {
  const auth = { "x-api-key": key };
  const rest: Shot[] = operations.flatMap((operation) =>
    operation.examples.map((example) => {
      const query = queryOf(example.input);
      return {
        kind: "rest",
        method: "GET" as const,
        path: query ? `${pathOf(operation)}?${query}` : pathOf(operation),
        headers: auth,
        expect: [200],
      };
    }),
  );
  const schema = buildGraphqlSchema(operations);
  const graphqlPost = (query: string, expect = [200]): Shot => ({
    kind: "graphql",
    method: "POST",
    path: "/graphql",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ query }),
    expect,
  });
  const graphql: Shot[] = [];
  for (const batch of batchesWithinBudget(operations, 4)) {
    graphql.push(graphqlPost(exampleQuery(schema, batch)));
  }
  // As many operations as one document's budget holds (a costly one runs alone).
  for (const batch of batchesWithinBudget(operations, operations.length)) {
    graphql.push(graphqlPost(exampleQuery(schema, batch)));
  }
  graphql.push({
    kind: "graphql",
    method: "GET",
    path: `/graphql?query=${encodeURIComponent(exampleQuery(schema, operations.slice(0, 2)))}`,
    headers: { ...auth, accept: "application/json" },
    expect: [200],
  });
  const sum = operations.find((operation) => pathOf(operation) === "/v1/math/sum");
  const sumPath = sum ? pathOf(sum) : "/v1/math/sum";
  const invalid: Shot[] = [
    { kind: "invalid", method: "GET", path: `${sumPath}?numbers=1`, headers: {}, expect: [401] },
    {
      kind: "invalid",
      method: "GET",
      path: `${sumPath}?numbers=1`,
      headers: { "x-api-key": "wrong-key" },
      expect: [401],
    },
    { kind: "invalid", method: "GET", path: "/v1/math/nope", headers: auth, expect: [404] },
    {
      kind: "invalid",
      method: "GET",
      path: `${sumPath}?numbers=1,abc,&extra=1`,
      headers: auth,
      expect: [422],
    },
    {
      kind: "invalid",
      method: "GET",
      path: `${sumPath}?numbers=${Array(10_001).fill("1").join(",")}`,
      headers: auth,
      expect: [422],
    },
    {
      kind: "invalid",
      method: "POST",
      path: `${sumPath}?numbers=1`,
      headers: { ...auth, "content-type": "application/json" },
      body: "{}",
      expect: [405],
    },
    {
      kind: "invalid",
      method: "POST",
      path: "/graphql",
      headers: { ...auth, "content-type": "application/json" },
      body: '{"query":"{ math { sum(numbers: [\\"x\\"]) { decimal } } }"}',
      expect: [200],
    },
    {
      kind: "invalid",
      method: "POST",
      path: "/graphql",
      headers: { ...auth, "content-type": "application/json" },
      body: '{"query":"{ math { "}',
      expect: [200, 400],
    },
    {
      kind: "invalid",
      method: "POST",
      path: "/graphql",
      headers: { ...auth, "content-type": "application/json" },
      body: "{not json",
      expect: [400],
    },
  ];
  const repeat = (shots: Shot[], times: number) =>
    Array.from({ length: times }, () => shots).flat();
  // rest has ~30 shots, graphql 6, invalid 9: weight them to ~70/15/15.
  const weight = (target: number, count: number) => Math.max(1, Math.round(target / count));
  return [
    ...repeat(rest, weight(140, rest.length)),
    ...repeat(graphql, weight(30, graphql.length)),
    ...repeat(invalid, weight(30, invalid.length)),
  ];
}

// ---------------------------------------------------------------------------------------
// The child process

const children = new Set<ChildProcess>();

/** SIGKILLs every service process this module started that is still running. */
export function killSoakChildren(): void {
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  children.clear();
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Response {
  status: number;
  body: string;
}

function send(
  port: number,
  shot: Pick<Shot, "method" | "path" | "headers" | "body">,
  agent: Agent | false,
  timeoutMs = 10_000,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: HOST,
        port,
        method: shot.method,
        path: shot.path,
        headers: shot.headers,
        agent,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timed out: ${shot.method} ${shot.path}`)));
    req.on("error", reject);
    req.end(shot.body);
  });
}

function metricOf(text: string, name: string): number | undefined {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, "m").exec(text);
  return match ? Number(match[1]) : undefined;
}

// ---------------------------------------------------------------------------------------
// Figures

/** Least-squares slope of y over x. */
export function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const p of points) {
    numerator += (p.x - meanX) * (p.y - meanY);
    denominator += (p.x - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Standard error of the least-squares slope of y over x. */
export function slopeStandardError(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 3) return Number.POSITIVE_INFINITY;
  const b = slope(points);
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  let residuals = 0;
  let spread = 0;
  for (const p of points) {
    residuals += (p.y - (meanY + b * (p.x - meanX))) ** 2;
    spread += (p.x - meanX) ** 2;
  }
  return spread === 0 ? Number.POSITIVE_INFINITY : Math.sqrt(residuals / (n - 2) / spread);
}

const perMinute = (points: { t: number; value: number }[]) =>
  points.map((point) => ({ x: point.t / 60, y: point.value }));

/** Start, max, end and least-squares slope (MB/min) of one post-warm-up series. */
export function figuresOf(samples: { t: number; value: number }[]): MemoryFigures {
  if (samples.length === 0) return { startMB: 0, maxMB: 0, endMB: 0, slopeMBPerMin: 0 };
  return {
    startMB: round(samples[0]?.value ?? 0),
    maxMB: round(Math.max(...samples.map((s) => s.value))),
    endMB: round(samples[samples.length - 1]?.value ?? 0),
    slopeMBPerMin: round(slope(perMinute(samples))),
  };
}

/**
 * The floors of a post-warm-up series: the lowest value of each major-GC cycle. A cycle
 * lasts at least `minSpanSeconds` (at thousands of requests/s, V8 may collect the old
 * generation every second; a floor needs a few samples to find a collection's low point),
 * and a last cycle shorter than that is left out. With fewer than 3 cycles (V8 collecting
 * rarely), each 10 s window's minimum is a floor instead.
 */
export function floorOf(
  samples: { t: number; value: number; majorGcs: number }[],
  minSpanSeconds = FLOOR_MIN_SPAN_S,
): FloorFigures {
  interface Group {
    startT: number;
    lastT: number;
    majorGcs: number;
    floor: { t: number; value: number };
  }
  const groups: Group[] = [];
  for (const sample of samples) {
    const group = groups[groups.length - 1];
    if (
      !group ||
      (sample.majorGcs !== group.majorGcs && sample.t - group.startT >= minSpanSeconds)
    ) {
      groups.push({ startT: sample.t, lastT: sample.t, majorGcs: sample.majorGcs, floor: sample });
    } else {
      group.majorGcs = sample.majorGcs;
      group.lastT = sample.t;
      if (sample.value < group.floor.value) group.floor = sample;
    }
  }
  const last = groups[groups.length - 1];
  if (groups.length > 1 && last && last.lastT - last.startT < minSpanSeconds) groups.pop();
  let floors = groups.map((group) => group.floor);
  let method: FloorFigures["method"] = "major-gc-cycles";
  if (floors.length < 3) {
    const t0 = samples[0]?.t ?? 0;
    const windows = new Map<number, { t: number; value: number }>();
    for (const sample of samples) {
      const key = Math.floor((sample.t - t0) / FLOOR_WINDOW_S);
      const current = windows.get(key);
      if (!current || sample.value < current.value) windows.set(key, sample);
    }
    floors = [...windows.values()];
    method = "windows";
  }
  const points = perMinute(floors);
  const fitted = slope(points);
  const error = slopeStandardError(points);
  return {
    method,
    points: floors.length,
    firstMB: round(floors[0]?.value ?? 0),
    lastMB: round(floors[floors.length - 1]?.value ?? 0),
    slopeMBPerMin: round(fitted),
    standardErrorMBPerMin: round(error),
    sustainedMBPerMin: round(fitted - 2 * error),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

// ---------------------------------------------------------------------------------------
// The run

/**
 * Runs the soak and returns its summary (also written to `artifactsDir` when given).
 * The service is always stopped before this returns or throws.
 */
export async function runSoak(options: SoakOptions): Promise<SoakSummary> {
  const log = options.log ?? (() => {});
  const { durationSeconds, connections, warmupSeconds } = options;
  if (!(durationSeconds > warmupSeconds)) throw new Error("DURATION must exceed the warm-up");
  const key = `soak-${process.pid}-${Date.now()}`;
  const operations = await loadOperations();
  const mix = buildMix(operations, key);
  const port = await freePort();
  const env: Record<string, string> = {
    HOST,
    PORT: String(port),
    API_KEYS: key,
    LOG_LEVEL: "warn",
    // Its invalid traffic sends wrong keys from one address: limited, they would turn
    // every later request into a 429 (the limit has tests of its own).
    AUTH_FAILURE_LIMIT: "0",
  };
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const oldSpaceMB = options.oldSpaceMB ?? DEFAULT_OLD_SPACE_MB;
  const nodeArgs = [
    ...(oldSpaceMB > 0 ? [`--max-old-space-size=${oldSpaceMB}`] : []),
    ...(options.nodeArgs ?? []),
  ];
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "src/server.ts"], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let output = "";
  let errorLogs = 0;
  const onOutput = (chunk: string) => {
    output = (output + chunk).slice(-20_000);
    for (const line of chunk.split("\n")) {
      if (/"level":(5\d|60)/.test(line)) errorLogs += 1;
    }
  };
  child.stdout?.setEncoding("utf8").on("data", onOutput);
  child.stderr?.setEncoding("utf8").on("data", onOutput);
  let exit: { code: number | null; signal: string | null } | null = null;
  const exited = new Promise<void>((resolve) =>
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      children.delete(child);
      resolve();
    }),
  );
  const pid = child.pid ?? -1;
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const startedAt = new Date().toISOString();
  try {
    // Bounded wait for the service to answer.
    const readyBy = Date.now() + 30_000;
    for (;;) {
      if (exit)
        throw new Error(`the service exited at start (${JSON.stringify(exit)}):\n${output}`);
      try {
        const health = await send(
          port,
          { method: "GET", path: "/health", headers: {} },
          false,
          1000,
        );
        if (health.status === 200) break;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > readyBy) throw new Error(`the service did not start in 30 s:\n${output}`);
      await sleep(100);
    }
    log(
      `soak: service pid ${pid} on port ${port}; ${durationSeconds} s, ${connections} connections, warm-up ${warmupSeconds} s`,
    );

    const statuses: Record<string, number> = {};
    const byKind: Record<string, number> = {};
    const unexpectedExamples: string[] = [];
    const latencies: number[] = [];
    let sent = 0;
    let answered = 0;
    let failed = 0;
    let unexpected = 0;
    let errorsWithoutJsonBody = 0;
    const began = performance.now();
    const deadline = began + durationSeconds * 1000;

    const worker = async (offset: number) => {
      let index = offset;
      while (performance.now() < deadline && exit === null) {
        const shot = mix[index % mix.length] as Shot;
        index += connections;
        sent += 1;
        byKind[shot.kind] = (byKind[shot.kind] ?? 0) + 1;
        const t = performance.now();
        try {
          const response = await send(port, shot, agent);
          answered += 1;
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          if (latencies.length < 500_000) latencies.push(performance.now() - t);
          if (response.status >= 400 && !isJsonObject(response.body)) errorsWithoutJsonBody += 1;
          if (!shot.expect.includes(response.status)) {
            unexpected += 1;
            if (unexpectedExamples.length < 10) {
              unexpectedExamples.push(
                `${shot.method} ${shot.path.slice(0, 120)} → ${response.status} ${response.body.slice(0, 200)}`,
              );
            }
          }
        } catch (error) {
          failed += 1;
          if (unexpectedExamples.length < 10) {
            unexpectedExamples.push(`${shot.method} ${shot.path.slice(0, 120)} → ${String(error)}`);
          }
          await sleep(10);
        }
      }
    };

    const samples: Sample[] = [];
    const sampler = async () => {
      const scrape = { method: "GET" as const, path: "/metrics", headers: { "x-api-key": key } };
      while (performance.now() < deadline && exit === null) {
        const tick = performance.now();
        const rssKB = rssKb(pid);
        const rssMB = rssKB === undefined ? undefined : rssKB / 1024;
        try {
          const metrics = await send(port, scrape, false, 5000);
          const heap = metricOf(metrics.body, "nodejs_heap_size_used_bytes");
          const majorGcs =
            metricOf(metrics.body, 'nodejs_gc_duration_seconds_count\\{kind="major"\\}') ?? 0;
          const space = (name: string) =>
            metricOf(metrics.body, `nodejs_heap_space_size_used_bytes\\{space="${name}"\\}`) ?? 0;
          const retained = space("old") + space("large_object");
          const code = space("code");
          if (rssMB !== undefined && heap !== undefined) {
            samples.push({
              t: (tick - began) / 1000,
              rssMB,
              heapUsedMB: heap / MB,
              majorGcs,
              oldMB: retained / MB,
              codeMB: code / MB,
            });
          }
        } catch {
          // A missed sample; the next one comes in a second.
        }
        const last = samples[samples.length - 1];
        if (last && samples.length % 10 === 0) {
          log(
            `soak: t=${Math.round(last.t)} s sent=${sent} rss=${last.rssMB.toFixed(1)} MB heap=${last.heapUsedMB.toFixed(1)} MB`,
          );
        }
        await sleep(Math.max(0, 1000 - (performance.now() - tick)));
      }
    };

    await Promise.all([
      sampler(),
      ...Array.from({ length: connections }, (_, offset) => worker(offset)),
    ]);
    const elapsed = (performance.now() - began) / 1000;
    if (exit)
      throw new Error(`the service exited during the soak (${JSON.stringify(exit)}):\n${output}`);

    const post = samples.filter((sample) => sample.t >= warmupSeconds);
    const rss = figuresOf(post.map((s) => ({ t: s.t, value: s.rssMB })));
    const heapUsed = figuresOf(post.map((s) => ({ t: s.t, value: s.heapUsedMB })));
    const oldGenerationFloor = floorOf(
      post.map((s) => ({ t: s.t, value: s.oldMB, majorGcs: s.majorGcs })),
    );
    latencies.sort((a, b) => a - b);

    // Graceful stop: SIGTERM drains; the exit code is part of the report.
    child.kill("SIGTERM");
    await Promise.race([exited, sleep(15_000)]);

    const serverErrors = Object.entries(statuses)
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, count]) => sum + count, 0);
    const failures: string[] = [];
    if (serverErrors > 0) failures.push(`${serverErrors} responses were 5xx`);
    if (errorsWithoutJsonBody > 0) {
      failures.push(`${errorsWithoutJsonBody} error responses had no JSON body`);
    }
    if (errorLogs > 0) failures.push(`the service logged ${errorLogs} errors`);
    if (post.length < 5) failures.push(`only ${post.length} memory samples after the warm-up`);
    if (oldGenerationFloor.sustainedMBPerMin > HEAP_GROWTH_LIMIT_MB_PER_MIN) {
      failures.push(
        `the heap's post-GC floor grows ${oldGenerationFloor.slopeMBPerMin} ± ` +
          `${oldGenerationFloor.standardErrorMBPerMin} MB/min: sustained growth over the ` +
          `${HEAP_GROWTH_LIMIT_MB_PER_MIN} MB/min limit`,
      );
    }
    const summary: SoakSummary = {
      startedAt,
      options: { durationSeconds, connections, warmupSeconds, oldSpaceMB },
      node: process.version,
      requests: {
        sent,
        answered,
        failed,
        perSecond: round(answered / elapsed, 1),
        statuses,
        byKind,
        serverErrors,
        errorsWithoutJsonBody,
        unexpected,
        unexpectedExamples,
        latencyMs: {
          p50: round(percentile(latencies, 50)),
          p99: round(percentile(latencies, 99)),
          max: round(latencies[latencies.length - 1] ?? 0),
        },
      },
      samples: samples.length,
      postWarmupSamples: post.length,
      rss,
      heapUsed,
      oldGenerationFloor,
      heapLimitMBPerMin: HEAP_GROWTH_LIMIT_MB_PER_MIN,
      serviceErrorLogs: errorLogs,
      serviceExit: exit,
      passed: failures.length === 0,
      failures,
    };
    if (options.artifactsDir) writeArtifacts(options.artifactsDir, summary, samples);
    return summary;
  } finally {
    agent.destroy();
    if (!exit) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      await Promise.race([exited, sleep(5000)]);
    }
    children.delete(child);
  }
}

/** The Markdown summary. */
export function markdownOf(summary: SoakSummary): string {
  const r = summary.requests;
  const o = summary.options;
  const f = summary.oldGenerationFloor;
  const row = (name: string, m: MemoryFigures) =>
    `| ${name} | ${m.startMB} | ${m.maxMB} | ${m.endMB} | ${m.slopeMBPerMin} |`;
  return [
    `# Soak: ${summary.passed ? "passed" : "FAILED"}`,
    "",
    `${summary.startedAt}, Node ${summary.node}: ${o.durationSeconds} s over ` +
      `${o.connections} keep-alive connections (warm-up ${o.warmupSeconds} s); service old ` +
      `space ${o.oldSpaceMB > 0 ? `${o.oldSpaceMB} MB` : "V8's default"}.`,
    "",
    "## Requests",
    "",
    `- sent ${r.sent}, answered ${r.answered}, failed at the socket ${r.failed}; ${r.perSecond} requests/s`,
    `- by kind: ${Object.entries(r.byKind)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(", ")}`,
    `- statuses: ${Object.entries(r.statuses)
      .map(([status, count]) => `${status}: ${count}`)
      .join(", ")}`,
    `- 5xx: ${r.serverErrors}; errors without a JSON body: ${r.errorsWithoutJsonBody}; statuses other than expected: ${r.unexpected}`,
    `- latency: p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms`,
    ...(r.unexpectedExamples.length > 0
      ? ["", "Unexpected:", "", ...r.unexpectedExamples.map((line) => `- \`${line}\``)]
      : []),
    "",
    "## Memory (after the warm-up)",
    "",
    `${summary.postWarmupSamples} of ${summary.samples} one-second samples (RSS from ` +
      "/proc/<pid>/status, heap used from /metrics); growth is the least-squares slope over " +
      "every sample.",
    "",
    "| MB | start | max | end | growth MB/min |",
    "|---|---|---|---|---|",
    row("RSS", summary.rss),
    row("heap used", summary.heapUsed),
    "",
    `Old generation's post-GC floor (old and large-object spaces, lowest of each ` +
      `${f.method === "windows" ? `${FLOOR_WINDOW_S} s window` : "major-GC cycle"}; ${f.points} ` +
      `points): ${f.firstMB} → ${f.lastMB} MB, growth **${f.slopeMBPerMin} ± ` +
      `${f.standardErrorMBPerMin} MB/min** (least squares ± standard error); sustained ` +
      `(slope − 2 SE) ${f.sustainedMBPerMin} MB/min against the limit of ` +
      `${summary.heapLimitMBPerMin} MB/min.`,
    "",
    `Service: ${summary.serviceErrorLogs} error log lines; exit after SIGTERM: ${JSON.stringify(summary.serviceExit)}.`,
    "",
    summary.passed
      ? "No failures."
      : `Failures:\n\n${summary.failures.map((f) => `- ${f}`).join("\n")}`,
    "",
  ].join("\n");
}

function writeArtifacts(dir: string, summary: SoakSummary, samples: Sample[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "soak-summary.json"),
    `${JSON.stringify(
      {
        ...summary,
        series: samples.map((s) => [
          round(s.t, 1),
          round(s.rssMB),
          round(s.heapUsedMB),
          s.majorGcs,
          round(s.oldMB),
          round(s.codeMB),
        ]),
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(path.join(dir, "soak-summary.md"), markdownOf(summary));
}

// ---------------------------------------------------------------------------------------
// Command line

function argument(name: string): string | undefined {
  const args = process.argv.slice(2);
  const index = args.indexOf(`--${name}`);
  if (index !== -1) return args[index + 1];
  return args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function integerOption(name: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new Error(`${name} must be an integer of at least ${min}, not '${raw}'`);
  }
  return Number(raw);
}

async function main(): Promise<void> {
  const durationSeconds = integerOption(
    "DURATION",
    argument("duration") ?? process.env.DURATION,
    300,
  );
  const connections = integerOption(
    "CONNECTIONS",
    argument("connections") ?? process.env.CONNECTIONS,
    20,
  );
  const warmupSeconds = integerOption("WARMUP", argument("warmup") ?? process.env.WARMUP, 10);
  const oldSpaceMB = integerOption(
    "OLD_SPACE_MB",
    argument("old-space") ?? process.env.OLD_SPACE_MB,
    DEFAULT_OLD_SPACE_MB,
    0,
  );
  const artifactsDir = path.join(ROOT, "artifacts");
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      killSoakChildren();
      process.exit(130);
    });
  }
  const summary = await runSoak({
    durationSeconds,
    connections,
    warmupSeconds,
    oldSpaceMB,
    artifactsDir,
    log: (line) => console.log(line),
  });
  console.log(markdownOf(summary));
  console.log(`soak: wrote ${path.join(artifactsDir, "soak-summary.{json,md}")}`);
  process.exitCode = summary.passed ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    killSoakChildren();
    console.error(`soak failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(2);
  });
}

/**
 * `operations` in batches of at most `size` whose first examples together fit one
 * request's budget, as a GraphQL document's fields must.
 */
function batchesWithinBudget(operations: readonly AnyOperation[], size: number): AnyOperation[][] {
  const batches: AnyOperation[][] = [];
  let current: AnyOperation[] = [];
  let work = 0;
  let bytes = 0;
  for (const operation of operations) {
    const cost = chargedCost(operation, operation.examples[0]?.input ?? {});
    const over =
      work + (cost.work ?? 0) > REQUEST_BUDGET.work ||
      bytes + (cost.bytes ?? 0) > REQUEST_BUDGET.bytes;
    if (current.length > 0 && (current.length >= size || over)) {
      batches.push(current);
      current = [];
      work = 0;
      bytes = 0;
    }
    current.push(operation);
    work += cost.work ?? 0;
    bytes += cost.bytes ?? 0;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
