/**
 * Where the service allocates memory per request: runs requests through `app.inject()`
 * under V8's sampling heap profiler (counting objects the collector already freed, so it
 * shows allocation, not retention) and prints bytes per request by allocating function.
 * Allocation sets how often the young generation is collected; under load, each
 * collection also copies every in-flight request's live objects.
 *
 * `app.inject()` skips the socket, so Node's own HTTP objects are replaced by
 * light-my-request's: read the service's rows, not those.
 *
 * Usage: npx tsx bench/allocations.ts [graphql-10-sum|rest-sum] [--requests 3000] [--top 30]
 */
import { Session } from "node:inspector/promises";
import { parseArgs } from "node:util";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { SHIPPED_LOG_LEVEL } from "./lib/shipped.js";
import { BENCH_QUOTA, GRAPHQL_TEN_SUMS_QUERY, SUM_PATH } from "./lib/workload.js";

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

const KEY = "allocations-key";

const REQUESTS = {
  "graphql-10-sum": {
    method: "POST" as const,
    url: "/graphql",
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    payload: JSON.stringify({ query: GRAPHQL_TEN_SUMS_QUERY }),
  },
  "rest-sum": {
    method: "GET" as const,
    url: SUM_PATH,
    headers: { "x-api-key": KEY },
  },
};

function siteOf(node: SamplingNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url
    .replace(/.*node_modules\//, "")
    .replace(/^file:\/\/.*?\/(src|operations)\//, "$1/");
  return `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      requests: { type: "string", default: "3000" },
      top: { type: "string", default: "30" },
    },
  });
  const target = (positionals[0] ?? "graphql-10-sum") as keyof typeof REQUESTS;
  const request = REQUESTS[target];
  if (!request)
    throw new Error(`unknown target ${target}; one of ${Object.keys(REQUESTS).join(", ")}`);
  const count = Number(values.requests);

  // As shipped: a per-key quota in memory, a line per request at info (to nowhere).
  const config = loadConfig({
    API_KEYS: KEY,
    RATE_LIMIT: String(BENCH_QUOTA.limit),
    RATE_LIMIT_WINDOW: String(BENCH_QUOTA.windowSeconds),
    LOG_LEVEL: SHIPPED_LOG_LEVEL,
  });
  const app = await buildApp({ config, logger: { stream: { write: () => true } } });
  // Warm up first: compiled queries, JIT, caches.
  for (let i = 0; i < 1000; i += 1) await app.inject(request);
  const probe = await app.inject(request);
  if (probe.statusCode !== 200 || probe.body.includes('"errors"')) {
    throw new Error(`${target} does not answer as it should: ${probe.statusCode} ${probe.body}`);
  }
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < count; i += 1) await app.inject(request);
  const { profile } = (await session.post("HeapProfiler.stopSampling")) as unknown as {
    profile: { head: SamplingNode };
  };
  session.disconnect();
  await app.close();

  const bySite = new Map<string, number>();
  let total = 0;
  const stack = [profile.head];
  for (let node = stack.pop(); node; node = stack.pop()) {
    total += node.selfSize;
    const site = siteOf(node);
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    stack.push(...node.children);
  }
  console.log(`${target}: ${(total / count / 1024).toFixed(1)} KB allocated per request`);
  const top = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
  for (const [site, bytes] of top)
    console.log(`${String(Math.round(bytes / count)).padStart(8)} B  ${site}`);
}

await main();
