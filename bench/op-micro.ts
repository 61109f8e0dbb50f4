/**
 * CPU per call of single operations, without a server: the handler on each example's
 * parsed input, zod's `parse`, and the compiled input check the gateways use, each after
 * a warm-up, in µs per call (median of several rounds).
 *
 * Usage: node --conditions=ucs-source --no-maglev --import tsx bench/op-micro.ts
 *   [area/name …] [--calls 20000] [--warmup 3000] [--rounds 5] [--first] [--dir operations]
 * (`--no-maglev` as `npm start` runs the service.) With `--requests`: CPU per whole request
 * of the bench's graphql-10 batch and of rest-10 (its ten operations over REST), through
 * `app.inject()` (no socket), and the calculations per CPU-second of each.
 */
import { parseArgs } from "node:util";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { inputCheckOf } from "../src/core/compile-input.js";
import type { AnyOperation } from "../src/kit/define.js";
import { loadOperations } from "../src/registry/loader.js";
import { SHIPPED_LOG_LEVEL } from "./lib/shipped.js";
import { API_KEY, BENCH_QUOTA, buildWorkloads } from "./lib/workload.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    calls: { type: "string", default: "20000" },
    warmup: { type: "string", default: "3000" },
    rounds: { type: "string", default: "5" },
    // The bench's GraphQL batch sends each operation's first example only.
    first: { type: "boolean", default: false },
    // Another checkout's operations (before/after comparisons).
    dir: { type: "string" },
    // Whole requests instead (app.inject, no socket): the graphql-10 batch and rest-10.
    requests: { type: "boolean", default: false },
  },
});
const CALLS = Number(values.calls);
const WARMUP = Number(values.warmup);
const ROUNDS = Number(values.rounds);

const FIRST_TEN = [
  "case/convert",
  "case/detect",
  "color/hex-to-hsl",
  "color/hex-to-rgb",
  "color/hsl-to-hex",
  "color/hsl-to-rgb",
  "color/rgb-to-hex",
  "color/rgb-to-hsl",
  "crypto/checksum/crc32",
  "crypto/checksum/md5",
];

/** µs per call of `run` over `inputs` in turn: the median of ROUNDS rounds. */
function measure(inputs: unknown[], run: (input: unknown) => unknown): number {
  let sink = 0;
  for (let i = 0; i < WARMUP; i++) sink ^= run(inputs[i % inputs.length]) === undefined ? 1 : 0;
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) sink ^= run(inputs[i % inputs.length]) === undefined ? 1 : 0;
    const used = process.cpuUsage(start);
    rounds.push((used.user + used.system) / CALLS);
  }
  if (sink === 42) console.log("");
  rounds.sort((a, b) => a - b);
  return rounds[Math.floor(rounds.length / 2)] as number;
}

const operations = await loadOperations(values.dir ? [values.dir] : undefined);
if (values.requests) {
  await measureRequests();
  process.exit(0);
}
const wanted = positionals.length > 0 ? positionals : FIRST_TEN;
console.log("operation                  handler µs   zod parse µs   compiled check µs");
for (const key of wanted) {
  const op = operations.find((o) => `${o.area}/${o.name}` === key) as AnyOperation | undefined;
  if (op === undefined) throw new Error(`no operation ${key}`);
  const examples = values.first ? op.examples.slice(0, 1) : op.examples;
  const raw = examples.map((example) => example.input as Record<string, unknown>);
  const parsed = raw.map((input) => op.input.parse(input));
  const check = inputCheckOf(op);
  const handler = measure(parsed, (input) => op.handler(input as never));
  const zod = measure(raw, (input) => op.input.parse(input));
  const compiled = measure(raw, (input) => check(input as Record<string, unknown>));
  console.log(
    `${key.padEnd(26)} ${handler.toFixed(2).padStart(10)} ${zod.toFixed(2).padStart(14)} ${compiled.toFixed(2).padStart(19)}`,
  );
}

/** CPU µs per request of graphql-10 and rest-10, through app.inject(). */
async function measureRequests(): Promise<void> {
  const config = loadConfig({
    API_KEYS: API_KEY,
    RATE_LIMIT: String(BENCH_QUOTA.limit),
    RATE_LIMIT_WINDOW: String(BENCH_QUOTA.windowSeconds),
    LOG_LEVEL: SHIPPED_LOG_LEVEL,
  });
  const app = await buildApp({ config, operations, logger: { stream: { write: () => true } } });
  const workloads = buildWorkloads(operations);
  for (const name of ["graphql-10", "rest-10"]) {
    const workload = workloads.find((candidate) => candidate.name === name);
    if (workload === undefined) throw new Error(`no workload ${name}`);
    const requests = workload.requests.map((request) => ({
      method: request.method,
      url: request.path,
      headers: request.headers,
      ...(request.body === undefined ? {} : { payload: request.body }),
    }));
    const probe = await app.inject(requests[0] as never);
    if (probe.statusCode !== 200 || probe.body.includes('"errors"')) {
      throw new Error(`${name} does not answer as it should: ${probe.statusCode} ${probe.body}`);
    }
    const count = Math.max(1, Math.floor(CALLS / 10));
    for (let i = 0; i < WARMUP; i++) await app.inject(requests[i % requests.length] as never);
    const rounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const start = process.cpuUsage();
      for (let i = 0; i < count; i++) await app.inject(requests[i % requests.length] as never);
      const used = process.cpuUsage(start);
      rounds.push((used.user + used.system) / count);
    }
    rounds.sort((a, b) => a - b);
    const perRequest = rounds[Math.floor(rounds.length / 2)] as number;
    const perSecond = (1e6 / perRequest) * workload.calculationsPerRequest;
    console.log(
      `${name.padEnd(12)} ${perRequest.toFixed(1).padStart(8)} µs CPU a request, ${Math.round(perSecond)} calculations per CPU-second`,
    );
  }
  await app.close();
}
