/**
 * The real stack: docker-compose.yml (two replicas, Redis, nginx) built and started, then
 * driven only through the balancer on a loopback port: every example, the docs pages, both
 * replicas serving, one shared quota, a replica killed under load, Redis stopped under
 * load, and a rolling update to an image with one more operation. Torn down at the end.
 *
 * `npm run test:deploy` (not part of `npm test`); needs root: it runs
 * scripts/docker-setup.sh, which installs Docker and seeds the base images if missing.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathOf } from "../../src/rest/path.js";
import { allOperations, queryOf, urlOf } from "../helpers.js";
import {
  freePort,
  httpGet,
  metricTotal,
  ROOT,
  remainingOf,
  sleep,
  waitFor,
} from "../process/helpers.js";
import {
  describeLoad,
  health,
  inspect,
  Load,
  type LoadReport,
  replicaGet,
  replicaRss,
  run,
  Stack,
  waitHealthy,
} from "./docker.js";

const PROJECT = "uc-deploy-test";
const IMAGE_V1 = "utility-calculation-service:deploy-test";
const IMAGE_V2 = "utility-calculation-service:deploy-test-v2";
const LIMIT = 500;
// Production refuses keys shorter than 32 characters: each name carries this tail.
const KEY_TAIL = "-deploy-test-0123456789abcdefghij";
const QUOTA_KEY = `quota-key${KEY_TAIL}`;
const EXAMPLES_KEY = `examples-key${KEY_TAIL}`;
const PROBE_KEYS = Array.from({ length: 150 }, (_, i) => `probe-${i}${KEY_TAIL}`);
// Enough keys that the load never meets the quota: 100 × 500 a minute.
const LOAD_KEYS = Array.from({ length: 100 }, (_, i) => `load-${i}${KEY_TAIL}`);
const LOAD_PATH = "/v1/math/sum?numbers=0.1,0.2";
const SUM_ROUTE = 'route="/v1/math/sum"';
const IMAGE_LIMIT_BYTES = 200e6;

const operations = await allOperations();
let port = 0;
let stack: Stack;
let load: Load | undefined;
/** The second image's build context (a copy of the repository's), removed at the end. */
let context: string | undefined;
const figures: string[] = [];
const note = (line: string) => {
  figures.push(line);
  console.log(`[deploy] ${line}`);
};

/** Requests sent through the balancer, by this file's checks and loads. */
let throughBalancer = 0;

const get = (pathAndQuery: string, key?: string, accept?: string) => {
  throughBalancer++;
  return httpGet(port, pathAndQuery, {
    headers: { ...(key ? { "x-api-key": key } : {}), ...(accept ? { accept } : {}) },
    timeoutMs: 15_000,
  });
};

/** Probe keys, each used for one counting check only. */
let nextProbe = 0;
const probeKey = () => {
  const key = PROBE_KEYS[nextProbe++];
  if (!key) throw new Error("out of probe keys");
  return key;
};

/** True when every replica counts a request against the shared quota (Redis connected). */
async function allReplicasCount(): Promise<boolean> {
  const replicas = await stack.containers("api");
  const key = probeKey();
  const remaining: (number | undefined)[] = [];
  for (const id of replicas) {
    const answer = await replicaGet(id, LOAD_PATH, key);
    remaining.push(
      answer.headers.ratelimit ? Number(/;r=(\d+)/.exec(answer.headers.ratelimit)?.[1]) : undefined,
    );
  }
  // Shared and counting: the replicas' answers count down one quota.
  return remaining.every((r, i) => r === LIMIT - 1 - i);
}

/** `http_requests_total` for the sum route on each replica, by container id. */
async function sumCounts(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const id of await stack.containers("api")) {
    const metrics = await replicaGet(id, "/metrics", EXAMPLES_KEY);
    counts.set(id, metricTotal(metrics.body, "http_requests_total", SUM_ROUTE));
  }
  return counts;
}

function startLoad(): Load {
  load = new Load(port, LOAD_PATH, LOAD_KEYS, 8, 180_000);
  return load;
}

async function stopLoad(): Promise<LoadReport> {
  const report = await (load as Load).stop();
  throughBalancer += report.requests;
  load = undefined;
  return report;
}

beforeAll(async () => {
  await run("bash", ["scripts/docker-setup.sh"], { timeoutMs: 600_000 });
  port = await freePort();
  stack = new Stack(PROJECT, {
    API_KEYS: [QUOTA_KEY, EXAMPLES_KEY, ...PROBE_KEYS, ...LOAD_KEYS].join(","),
    RATE_LIMIT: String(LIMIT),
    RATE_LIMIT_WINDOW: "60",
    LB_PORT: String(port),
    API_IMAGE: IMAGE_V1,
    LOG_LEVEL: "warn",
  });
  // Whatever an interrupted earlier run left behind.
  await stack.run(["down", "-v", "--remove-orphans", "-t", "2"]);

  let started = performance.now();
  await stack.run(["build"], {}, 600_000);
  note(`image build (compose build): ${((performance.now() - started) / 1000).toFixed(1)} s`);
  started = performance.now();
  await stack.run(["up", "-d"], {}, 180_000);
  const up = await waitFor(
    async () => {
      try {
        return (await get("/ready")).status === 200;
      } catch {
        return false;
      }
    },
    60_000,
    200,
  );
  expect(up, "the balancer answers /ready").toBe(true);
  note(
    `stack start (compose up -d to the first 200 through the balancer): ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  // Healthy is not yet connected to Redis; until then requests pass uncounted.
  expect(await waitFor(allReplicasCount, 30_000, 500), "both replicas count in Redis").toBe(true);
}, 900_000);

afterAll(async () => {
  if (load) await stopLoad();
  if (stack) {
    await stack
      .run(["down", "-v", "--remove-orphans", "-t", "2"])
      .catch((error: Error) => console.error(error.message));
  }
  await run("docker", ["image", "rm", IMAGE_V2]).catch(() => undefined);
  if (context) rmSync(context, { recursive: true, force: true });
  note(`requests through the balancer in all: ${throughBalancer}`);
  console.log(`[deploy] figures:\n  ${figures.join("\n  ")}`);
}, 120_000);

describe("the image", () => {
  it("is under 200 MB, runs as node, checks /ready, and the replicas run read-only", async () => {
    const image = await inspect<{
      Size: number;
      Config: { User: string; Healthcheck: { Test: string[] } };
    }>(IMAGE_V1);
    note(`image ${IMAGE_V1}: ${(image.Size / 1e6).toFixed(1)} MB`);
    expect(image.Size).toBeLessThan(IMAGE_LIMIT_BYTES);
    expect(image.Config.User).toBe("node");
    expect(image.Config.Healthcheck.Test.join(" ")).toContain("/ready");

    for (const id of await stack.containers("api")) {
      const container = await inspect<{
        HostConfig: { ReadonlyRootfs: boolean; CapDrop: string[] };
      }>(id);
      expect(container.HostConfig.ReadonlyRootfs).toBe(true);
      expect(container.HostConfig.CapDrop).toEqual(["ALL"]);
      expect(await health(id)).toBe("healthy");
      const write = await run("docker", [
        "exec",
        id,
        "node",
        "-e",
        "try{require('fs').writeFileSync('/app/x','');console.log('written')}catch(e){console.log(e.code)}",
      ]);
      expect(write.stdout.trim()).toBe("EROFS");
      const uid = await run("docker", ["exec", id, "node", "-p", "process.getuid()"]);
      expect(uid.stdout.trim()).not.toBe("0");
    }
  });
});

describe("through the balancer", () => {
  it("answers every operation's examples as documented", async () => {
    const served = (await get("/openapi.json")).body;
    const documented = Object.keys((JSON.parse(served) as { paths: object }).paths);
    // The operations' paths; the document also has /v1/me and the admin API's.
    const operationPaths = documented.filter((path) => /^\/v1\/[^/]+\/./.test(path));
    expect(operationPaths.sort()).toEqual(operations.map(pathOf).sort());

    let answered = 0;
    for (const operation of operations) {
      for (const example of operation.examples) {
        const response = await get(urlOf(operation, queryOf(example.input)), EXAMPLES_KEY);
        expect(response.status, `${pathOf(operation)}: ${response.body}`).toBe(200);
        expect(JSON.parse(response.body), `${pathOf(operation)} ${example.title}`).toEqual(
          example.output,
        );
        answered++;
      }
    }
    note(
      `examples answered through the balancer: ${answered} (of ${operations.length} operations)`,
    );
  });

  it("loads /docs and GraphiQL", async () => {
    const docs = await get("/docs", undefined, "text/html");
    expect(docs.status).toBe(200);
    expect(docs.headers["content-type"]).toMatch(/^text\/html/);
    expect(docs.body).toMatch(/swagger-ui/i);
    const graphiql = await get("/graphql", undefined, "text/html");
    expect(graphiql.status).toBe(200);
    expect(graphiql.headers["content-type"]).toMatch(/^text\/html/);
    expect(graphiql.body).toMatch(/graphiql/i);
  });

  it("spreads requests over both replicas", async () => {
    const before = await sumCounts();
    expect(before.size).toBe(2);
    const requests = 200;
    for (let i = 0; i < requests; i++) {
      expect((await get(LOAD_PATH, LOAD_KEYS[i % LOAD_KEYS.length])).status).toBe(200);
    }
    const after = await sumCounts();
    const served = [...after].map(([id, count]) => count - (before.get(id) ?? 0));
    note(`${requests} requests through the balancer, served per replica: ${served.join(" + ")}`);
    expect(served.reduce((a, b) => a + b, 0)).toBe(requests);
    for (const count of served) expect(count).toBeGreaterThan(requests / 10);
  });

  it(`allows exactly ${LIMIT} requests of one key across both replicas`, async () => {
    const before = await sumCounts();
    const extra = 20;
    const statuses: number[] = [];
    let next = 0;
    const client = async () => {
      while (next < LIMIT + extra) {
        next++;
        statuses.push((await get(LOAD_PATH, QUOTA_KEY)).status);
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    const after = await sumCounts();
    const served = [...after].map(([id, count]) => count - (before.get(id) ?? 0));
    const ok = statuses.filter((status) => status === 200).length;
    const refused = statuses.filter((status) => status === 429).length;
    note(
      `quota ${LIMIT}: ${ok} × 200, ${refused} × 429 from replicas serving ${served.join(" + ")}`,
    );
    expect({ ok, refused }).toEqual({ ok: LIMIT, refused: extra });
    for (const count of served) expect(count).toBeGreaterThan(0);
  });
});

describe("failures under steady load", () => {
  it("keeps answering when one replica is killed", async () => {
    const [victim] = await stack.containers("api");
    startLoad();
    await sleep(2000);
    await run("docker", ["kill", victim as string]);
    await sleep(8000);
    const report = await stopLoad();
    note(`docker kill of one replica: ${describeLoad(report)}`);
    expect(report.failures).toEqual({});

    await run("docker", ["start", victim as string]);
    expect(await waitHealthy(await stack.containers("api"), 60_000)).toBe(true);
    expect(await waitFor(allReplicasCount, 30_000, 500)).toBe(true);
  });

  it("fails open while Redis is stopped, and counts again when it is back", async () => {
    const [redis] = await stack.containers("redis");
    startLoad();
    await sleep(2000);
    await run("docker", ["stop", "-t", "1", redis as string]);
    await sleep(6000);
    const report = await stopLoad();
    note(`Redis stopped: ${describeLoad(report)}`);
    expect(report.failures).toEqual({});

    // Past the quota while Redis is down: only failing open lets these through.
    const during: number[] = [];
    for (let i = 0; i < 20; i++) during.push((await get(LOAD_PATH, QUOTA_KEY)).status);
    expect(during).toEqual(Array(20).fill(200));

    const restarted = performance.now();
    await run("docker", ["start", redis as string]);
    expect(await waitFor(allReplicasCount, 30_000, 500)).toBe(true);
    note(
      `counting resumed on both replicas ${((performance.now() - restarted) / 1000).toFixed(1)} s after Redis started again`,
    );
    // A fresh Redis starts the quota over: one key counts down across the balancer.
    const key = probeKey();
    const remaining: (number | undefined)[] = [];
    for (let i = 0; i < 6; i++) remaining.push(remainingOf(await get(LOAD_PATH, key)));
    expect(remaining).toEqual([1, 2, 3, 4, 5, 6].map((n) => LIMIT - n));
  });
});

describe("a rolling update", () => {
  it("replaces the replicas one at a time with an image that has one more operation, losing nothing", async () => {
    context = mkdtempSync(path.join(tmpdir(), "uc-deploy-v2-"));
    try {
      for (const entry of [
        "Dockerfile",
        ".dockerignore",
        "package.json",
        "package-lock.json",
        "tsconfig.json",
        "tsconfig.build.json",
        "src",
        "operations",
      ]) {
        cpSync(path.join(ROOT, entry), path.join(context, entry), { recursive: true });
      }
      mkdirSync(path.join(context, "operations", "rollout"));
      cpSync(
        path.join(ROOT, "test", "deploy", "rollout-operation.ts"),
        path.join(context, "operations", "rollout", "echo.ts"),
      );
      const started = performance.now();
      await run("docker", ["build", "--network", "host", "-q", "-t", IMAGE_V2, context], {
        timeoutMs: 600_000,
      });
      note(
        `image v2 build (cached dependencies): ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    } finally {
      rmSync(context, { recursive: true, force: true });
    }

    const old = await stack.containers("api");
    expect(old).toHaveLength(2);
    // The replicas that served every test so far: what a Kubernetes request should cover.
    for (const id of old) {
      const rss = await replicaRss(id);
      note(
        `replica ${id.slice(0, 12)} after the tests: RSS ${(rss.rssKb / 1024).toFixed(0)} MB, peak ${(rss.peakKb / 1024).toFixed(0)} MB`,
      );
    }
    startLoad();
    const rolloutStarted = performance.now();
    for (const id of old) {
      const known = new Set(await stack.containers("api"));
      // One more replica from the new image; the old ones stay as they are.
      await stack.run(["up", "-d", "--no-deps", "--no-recreate", "--scale", "api=3", "api"], {
        API_IMAGE: IMAGE_V2,
      });
      const added = (await stack.containers("api")).filter((c) => !known.has(c));
      expect(added).toHaveLength(1);
      expect(await waitHealthy(added, 60_000), "the new replica turns healthy").toBe(true);
      // SIGTERM: the old replica drains (DRAIN_DELAY), closes, exits.
      await run("docker", ["stop", "-t", "20", id], { timeoutMs: 40_000 });
      await run("docker", ["rm", id]);
    }
    // nginx re-resolves "api" every 5 s: keep the load on past that.
    await sleep(6000);
    const report = await stopLoad();
    note(
      `rolling update (2 replicas, one at a time, ${((performance.now() - rolloutStarted) / 1000).toFixed(1)} s): ${describeLoad(report)}`,
    );
    expect(report.failures).toEqual({});

    const now = await stack.containers("api");
    expect(now).toHaveLength(2);
    for (const id of now) {
      const image = await inspect<{ Config: { Image: string } }>(id);
      expect(image.Config.Image).toBe(IMAGE_V2);
    }
    const paths = Object.keys(
      (JSON.parse((await get("/openapi.json")).body) as { paths: object }).paths,
    );
    expect(paths).toContain("/v1/rollout/echo");
    for (let i = 0; i < 6; i++) {
      const response = await get("/v1/rollout/echo?n=21", EXAMPLES_KEY);
      expect(response.status, response.body).toBe(200);
      expect(JSON.parse(response.body)).toEqual({ n: 21, doubled: 42 });
    }
    for (const id of now) {
      const rss = await replicaRss(id);
      note(
        `replica ${id.slice(0, 12)} RSS ${(rss.rssKb / 1024).toFixed(0)} MB, peak ${(rss.peakKb / 1024).toFixed(0)} MB`,
      );
    }
  }, 600_000);
});
