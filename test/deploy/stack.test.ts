/**
 * The real stack: docker-compose.yml (two replicas, Redis, PostgreSQL, nginx) built and
 * started, then driven through the balancer on a loopback port: every example, the docs
 * pages, both replicas serving, one shared quota, a managed key created, used, counted and
 * revoked across replicas, a replica killed under load, Redis and PostgreSQL each stopped
 * under load, and a rolling update to an image with one more operation. Torn down at the end.
 *
 * `npm run test:deploy` (not part of `npm test`); needs root: it runs
 * scripts/docker-setup.sh, which installs Docker and seeds the base images if missing.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathOf } from "../../src/core/path.js";
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
  replicaFetch,
  replicaGet,
  replicaGetMany,
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
const ADMIN_TOKEN = "admin-token-deploy-test-0123456789abcdefghij";
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
// Goes into DATABASE_URL as it is: letters and digits only.
const POSTGRES_PASSWORD = "deploytest0123456789abcdef";
/** API.md §7: a change reaches every process sharing the store within 5 s. */
const PROPAGATION_MS = 5000;
/** API.md §7: usage counts may lag by up to 10 s. */
const USAGE_LAG_MS = 10_000;
// A plan of its own: the managed keys in the loads never meet the server's quota.
const MANAGED_PLAN = { limit: 1_000_000, windowSeconds: 60 };

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

function startLoad(keys: readonly string[] = LOAD_KEYS): Load {
  load = new Load(port, LOAD_PATH, keys, 8, 180_000);
  return load;
}

interface AdminAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** An admin request through the balancer, with the token. */
async function admin(method: string, pathAndQuery: string, body?: unknown): Promise<AdminAnswer> {
  throughBalancer++;
  const response = await fetch(`http://127.0.0.1:${port}${pathAndQuery}`, {
    method,
    headers: { ...ADMIN, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? null : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** A managed key made through the balancer: its id and its secret. */
async function createKey(name: string): Promise<{ id: string; key: string }> {
  const created = await admin("POST", "/admin/v1/keys", { name, plan: MANAGED_PLAN });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { id, key } = created.body as { id: string; key: string };
  expect(key).toMatch(/^ucs_[0-9A-Za-z]{32,}$/);
  return { id, key };
}

/**
 * Waits until every replica answers `key` with 200: whether they did within `timeoutMs`,
 * and how many 200s (counted calls) the checks made.
 */
async function untilEveryReplicaKnows(key: string, timeoutMs: number) {
  const replicas = await stack.containers("api");
  let calls = 0;
  const known = await waitFor(
    async () => {
      for (const id of replicas) {
        if ((await replicaGet(id, LOAD_PATH, key)).status !== 200) return false;
        calls++;
      }
      return true;
    },
    timeoutMs,
    100,
  );
  return { known, calls };
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
    ADMIN_TOKEN,
    POSTGRES_PASSWORD,
    // Polling a revoked key is a run of 401s from one address: not a guessing attack here.
    AUTH_FAILURE_LIMIT: "100000",
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
    const [postgres] = await stack.containers("postgres");
    const database = await inspect<{ HostConfig: { ReadonlyRootfs: boolean } }>(postgres as string);
    expect(database.HostConfig.ReadonlyRootfs).toBe(true);
    expect(await health(postgres as string)).toBe("healthy");
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

describe("managed keys across replicas", () => {
  it("refuses a key revoked through one replica, through the balancer, within 5 s", async () => {
    const { id, key } = await createKey("deploy-test revoked");
    // The replica that made it knows it at once; the other within one poll of the store.
    expect(
      (await untilEveryReplicaKnows(key, PROPAGATION_MS)).known,
      "known on every replica",
    ).toBe(true);
    for (let i = 0; i < 10; i++) expect((await get(LOAD_PATH, key)).status).toBe(200);

    const [through, other] = await stack.containers("api");
    const started = performance.now();
    const revoked = await replicaFetch(through as string, "DELETE", `/admin/v1/keys/${id}`, ADMIN);
    expect(revoked.status, revoked.body).toBe(204);
    // Ten 401s in a row through the balancer: both replicas refuse it.
    let refusedInRow = 0;
    const refused = await waitFor(
      async () => {
        refusedInRow = (await get(LOAD_PATH, key)).status === 401 ? refusedInRow + 1 : 0;
        return refusedInRow >= 10;
      },
      PROPAGATION_MS,
      20,
    );
    const ms = performance.now() - started;
    note(
      `managed key revoked through replica ${(through as string).slice(0, 12)}: ten 401s in a row through the balancer after ${(ms / 1000).toFixed(1)} s`,
    );
    expect(refused, "refused through the balancer").toBe(true);
    expect(ms).toBeLessThan(PROPAGATION_MS);
    expect((await replicaGet(other as string, LOAD_PATH, key)).status).toBe(401);
  });

  it("adds up one key's usage over both replicas", async () => {
    const { id, key } = await createKey("deploy-test usage");
    const ready = await untilEveryReplicaKnows(key, PROPAGATION_MS);
    expect(ready.known).toBe(true);
    // Every 200 with this key is a counted call, the checks' above too.
    const replicas = await stack.containers("api");
    const statuses: number[] = [];
    for (const [i, replica] of replicas.entries()) {
      statuses.push(...(await replicaGetMany(replica, LOAD_PATH, key, 10 + 5 * i)));
    }
    for (let i = 0; i < 20; i++) statuses.push((await get(LOAD_PATH, key)).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const lastRequest = performance.now();

    const callsOf = (answer: AdminAnswer) =>
      (answer.body.usage as { operation: string; calls: number }[])
        .filter((row) => row.operation === "math/sum")
        .reduce((sum, row) => sum + row.calls, 0);
    let calls = 0;
    const made = statuses.length + ready.calls;
    const counted = await waitFor(
      async () => {
        const usage = await admin("GET", `/admin/v1/keys/${id}/usage`);
        expect(usage.status, JSON.stringify(usage.body)).toBe(200);
        calls = callsOf(usage);
        return calls >= made;
      },
      USAGE_LAG_MS,
      500,
    );
    note(
      `usage of one managed key over ${replicas.length} replicas: ${calls} calls counted ${((performance.now() - lastRequest) / 1000).toFixed(1)} s after the last`,
    );
    expect(counted, `usage counted ${calls} of ${made} calls within 10 s`).toBe(true);
    expect(calls).toBe(made);
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

  it("keeps serving cached keys while PostgreSQL is stopped; admin writes answer 503", async () => {
    const managed = await createKey("deploy-test cached");
    expect((await untilEveryReplicaKnows(managed.key, PROPAGATION_MS)).known).toBe(true);
    // One request in eleven with the managed key, the rest with static keys.
    const keys = LOAD_KEYS.flatMap((key, i) => (i % 10 === 0 ? [managed.key, key] : [key]));
    const [postgres] = await stack.containers("postgres");
    startLoad(keys);
    await sleep(2000);
    await run("docker", ["stop", "-t", "10", postgres as string], { timeoutMs: 30_000 });
    const stopped = performance.now();
    const writes: number[] = [];
    for (let i = 0; i < 3; i++) {
      writes.push((await admin("POST", "/admin/v1/keys", { name: "while stopped" })).status);
      writes.push(
        (await admin("PATCH", `/admin/v1/keys/${managed.id}`, { name: "renamed" })).status,
      );
    }
    await sleep(Math.max(0, 6000 - (performance.now() - stopped)));
    const report = await stopLoad();
    note(
      `PostgreSQL stopped: ${describeLoad(report)}; admin writes meanwhile: ${writes.join(" ")}`,
    );
    expect(report.failures).toEqual({});
    expect(writes).toEqual(Array(6).fill(503));

    const restarted = performance.now();
    await run("docker", ["start", postgres as string]);
    let created: { id: string; key: string } | undefined;
    const writable = await waitFor(
      async () => {
        const answer = await admin("POST", "/admin/v1/keys", { name: "after restart" });
        if (answer.status !== 201) return false;
        created = answer.body as { id: string; key: string };
        return true;
      },
      30_000,
      500,
    );
    expect(writable, "an admin write succeeds once PostgreSQL is back").toBe(true);
    note(
      `admin writes succeed again ${((performance.now() - restarted) / 1000).toFixed(1)} s after PostgreSQL started`,
    );
    expect(
      (await untilEveryReplicaKnows((created as { key: string }).key, PROPAGATION_MS)).known,
    ).toBe(true);
    expect((await get(LOAD_PATH, managed.key)).status).toBe(200);
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
        "scripts",
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
