/**
 * Many distinct valid GraphQL documents cannot fill the heap (outside attack round, finding
 * 2), against a process started as in production: NODE_ENV=production and the heap caps of
 * `npm start`. Each compiled 35- or 100-field document holds about 1-2 MB: the prepared
 * documents are kept within a byte budget, and a key over its quota gets its 429 before its
 * document is validated or compiled.
 *
 * Here a few hundred distinct documents of 35 aliased fields go over two keep-alive
 * connections, with and without RATE_LIMIT=20: the process survives, /health answers
 * throughout, and the heap used (/metrics, behind METRICS_TOKEN so that reading it is charged
 * to no key) stays bounded.
 */
import { Agent, request } from "node:http";
import { afterAll, expect, it } from "vitest";
import {
  HOST,
  httpGet,
  metricTotal,
  runLoad,
  type Server,
  START,
  sleep,
  startServer,
  stopAll,
} from "./helpers.js";

const KEY = "graphql-documents-test-key-0123456789";
const METRICS_TOKEN = "graphql-documents-metrics-token-0123456789";
/** Documents sent, at most, and for at most this long. */
const DOCUMENTS = 300;
const MAX_MS = 60_000;
/**
 * The heap used, garbage included, stays below the old space's cap (128 MB). V8 keeps the
 * code generated for each document in its compilation cache until memory runs short, so
 * under this load the heap used runs high (~100-115 MB; 55-70 MB with node's
 * --no-compilation-cache) whatever the service keeps.
 */
const HEAP_BOUND = 125 * 1024 * 1024;
/** With every document refused by the quota, nothing is compiled: the heap stays low. */
const REFUSED_HEAP_BOUND = 64 * 1024 * 1024;

afterAll(stopAll);

async function production(env: Record<string, string> = {}): Promise<Server> {
  expect(START.nodeFlags).toContain("--max-old-space-size=128");
  return startServer(
    {
      ...START.env,
      API_KEYS: KEY,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      METRICS_TOKEN,
      ...env,
    },
    { nodeFlags: START.nodeFlags },
  );
}

/** A valid document of `fields` aliased math.sum fields, distinct for each `seed`. */
function document(seed: number, fields = 35): string {
  const aliases = Array.from(
    { length: fields },
    (_, i) => `s${seed}_${i}: sum(numbers: [${seed}, ${i}]) { decimal }`,
  );
  return `{ math { ${aliases.join(" ")} } }`;
}

function post(port: number, agent: Agent, query: string): Promise<number> {
  const body = JSON.stringify({ query });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: HOST,
        port,
        path: "/graphql",
        method: "POST",
        agent,
        headers: {
          "x-api-key": KEY,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error("no answer in 20 s")));
    req.on("error", reject);
    req.end(body);
  });
}

async function heapUsed(server: Server): Promise<number> {
  const metrics = await httpGet(server.port, "/metrics", {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    timeoutMs: 10_000,
  });
  expect(metrics.status).toBe(200);
  return metricTotal(metrics.body, "nodejs_heap_size_used_bytes");
}

/**
 * Sends distinct documents over two keep-alive connections while /health and the heap are
 * watched; returns the statuses, the first failure (a request or /health), the slowest
 * /health answer and the heap used as sampled.
 */
async function flood(server: Server) {
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  const statuses = new Map<number, number>();
  let failure: string | undefined;
  let done = false;
  let slowestHealth = 0;
  const heaps: number[] = [];
  const watch = (async () => {
    while (!done && failure === undefined) {
      try {
        const health = await httpGet(server.port, "/health", { timeoutMs: 10_000 });
        if (health.status !== 200) failure = `/health answered ${health.status}`;
        slowestHealth = Math.max(slowestHealth, health.ms);
        heaps.push(await heapUsed(server));
      } catch (error) {
        failure = `/health: ${String(error)}`;
      }
      await sleep(250);
    }
  })();
  try {
    await runLoad({
      clients: 2,
      maxRequests: DOCUMENTS,
      maxMs: MAX_MS,
      stopWhen: () => failure !== undefined,
      task: async (i) => {
        try {
          const status = await post(server.port, agent, document(i));
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        } catch (error) {
          failure ??= `document ${i}: ${String(error)}`;
        }
      },
    });
  } finally {
    done = true;
    agent.destroy();
  }
  await watch;
  if (failure === undefined) heaps.push(await heapUsed(server));
  const mb = (bytes: number) => Math.round(bytes / 1e6);
  console.log(
    `[graphql-documents] ${JSON.stringify([...statuses])}; heap used (MB): ${heaps.map(mb).join(" ")}`,
  );
  return { statuses, failure, slowestHealth, largestHeap: Math.max(...heaps) };
}

it("distinct documents do not fill the heap: the process survives and stays healthy", async () => {
  const server = await production();
  const { statuses, failure, slowestHealth, largestHeap } = await flood(server);
  expect(failure, server.output()).toBeUndefined();
  expect(server.running, server.output()).toBe(true);
  expect(statuses.get(200)).toBeGreaterThan(100);
  expect([...statuses.keys()]).toEqual([200]);
  expect(largestHeap).toBeLessThan(HEAP_BOUND);
  expect(slowestHealth).toBeLessThan(5_000);
}, 120_000);

it("with RATE_LIMIT=20, every answer is a 429 and the documents are not prepared", async () => {
  const server = await production({ RATE_LIMIT: "20" });
  const { statuses, failure, largestHeap } = await flood(server);
  expect(failure, server.output()).toBeUndefined();
  expect(server.running, server.output()).toBe(true);
  // Each asks for 35 calculations: none fits the quota, and only the first is prepared.
  expect([...statuses.entries()]).toEqual([[429, DOCUMENTS]]);
  expect(largestHeap).toBeLessThan(REFUSED_HEAP_BOUND);
}, 120_000);
