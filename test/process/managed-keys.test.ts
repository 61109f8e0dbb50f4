/**
 * Managed keys across processes, as deployed (production flags, `npm start`'s heap caps):
 *
 * - Two services on one PostgreSQL: a key created through one is honoured by the other
 *   within 5 s, and refused there within 5 s of its revocation through the first; usage
 *   counted by both adds up once both have stopped (written at shutdown).
 * - The secret scan: after a run that creates, rolls and uses keys on every surface, the
 *   SQLite files (with the write-ahead log) and everything the process printed hold no
 *   key secret and not the admin token.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Postgres, postgresBinDir, startPostgres } from "../postgres.js";
import { HOST, type Server, START, sleep, startServer, stopAll } from "./helpers.js";

const STATIC_KEY = "managed-keys-static-key-0123456789abcdef";
const ADMIN_TOKEN = "managed-keys-admin-token-0123456789abcdef";
const PG_MISSING = postgresBinDir() === undefined;
let postgres: Postgres | undefined;

afterAll(async () => {
  await stopAll();
  await postgres?.stop();
}, 60_000);

function service(env: Record<string, string>): Promise<Server> {
  return startServer(
    {
      ...START.env,
      API_KEYS: STATIC_KEY,
      ADMIN_TOKEN,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      ...env,
    },
    { nodeFlags: START.nodeFlags, readyTimeoutMs: 40_000 },
  );
}

async function call(
  server: Server,
  method: string,
  path: string,
  { key, body }: { key?: string; body?: unknown } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const headers: Record<string, string> = key
    ? { "x-api-key": key }
    : { authorization: `Bearer ${ADMIN_TOKEN}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`http://${HOST}:${server.port}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (key && response.status === 200) served.set(key, (served.get(key) ?? 0) + 1);
  return {
    status: response.status,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** How long until `check` holds, polling every 100 ms; Infinity after `limitMs`. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if (await check()) return performance.now() - started;
    await sleep(100);
  }
  return Number.POSITIVE_INFINITY;
}

const SUM = "/v1/math/sum?numbers=1,2";

/** Answers with status 200 per key, as the client saw them: what usage must add up to. */
const served = new Map<string, number>();

describe.skipIf(PG_MISSING && !process.env.CI)("two services on one PostgreSQL", () => {
  it("a key created or revoked through one is honoured by the other within 5 s; usage adds up", async () => {
    postgres = await startPostgres();
    const [a, b] = await Promise.all([
      service({ DATABASE_URL: postgres.url }),
      service({ DATABASE_URL: postgres.url }),
    ]);
    if (!a || !b) throw new Error("services did not start");
    const created = await call(a, "POST", "/admin/v1/keys", {
      body: { name: "shared", plan: { limit: 1000, windowSeconds: 60 } },
    });
    expect(created.status).toBe(201);
    const secret = created.json.key as string;
    const id = created.json.id as string;
    expect((await call(a, "GET", SUM, { key: secret })).status).toBe(200);
    const seen = await within(
      5000,
      async () => (await call(b, "GET", SUM, { key: secret })).status === 200,
    );
    expect(seen).toBeLessThan(5000);

    for (let i = 0; i < 5; i++) await call(a, "GET", SUM, { key: secret });
    for (let i = 0; i < 7; i++) await call(b, "GET", SUM, { key: secret });

    expect((await call(a, "DELETE", `/admin/v1/keys/${id}`)).status).toBe(204);
    expect((await call(a, "GET", SUM, { key: secret })).status).toBe(401);
    const refused = await within(
      5000,
      async () => (await call(b, "GET", SUM, { key: secret })).status === 401,
    );
    expect(refused).toBeLessThan(5000);

    // Usage is written every few seconds and at shutdown: stop both, read it from a third.
    a.signal("SIGTERM");
    b.signal("SIGTERM");
    expect(await a.waitExit(20_000)).toEqual({ code: 0, signal: null });
    expect(await b.waitExit(20_000)).toEqual({ code: 0, signal: null });
    const c = await service({ DATABASE_URL: postgres.url });
    // The key is revoked: its usage is read from the store directly.
    const { openKeyStore } = await import("../../src/access/keys/store.js");
    const store = await openKeyStore({ dataDir: "/nonexistent", databaseUrl: postgres.url });
    try {
      const today = new Date().toISOString().slice(0, 10);
      const rows = await store.usage(id, today, today);
      // Every 200 either process gave (401s count for no key), none lost, none twice.
      const calls = rows.reduce((sum, row) => sum + row.calls, 0);
      expect(calls).toBe(served.get(secret));
      expect(calls).toBeGreaterThanOrEqual(14);
    } finally {
      await store.close();
    }
    c.signal("SIGTERM");
  }, 180_000);
});

describe("the secret scan", () => {
  it("no key secret nor the admin token in the store's files or the log", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ucs-scan-"));
    const server = await service({ DATA_DIR: dataDir, RATE_LIMIT: "100" });
    const secrets: string[] = [ADMIN_TOKEN, STATIC_KEY];
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await call(server, "POST", "/admin/v1/keys", {
        body: { name: `scan-${i}`, scopes: ["math"] },
      });
      expect(created.status).toBe(201);
      secrets.push(created.json.key as string);
      ids.push(created.json.id as string);
    }
    const rolled = await call(server, "POST", `/admin/v1/keys/${ids[0]}/roll`, {
      body: { overlapSeconds: 60 },
    });
    expect(rolled.status).toBe(201);
    secrets.push(rolled.json.key as string);
    for (const secret of secrets.slice(2)) {
      expect((await call(server, "GET", SUM, { key: secret })).status).toBe(200);
      expect((await call(server, "GET", "/v1/me", { key: secret })).status).toBe(200);
      await fetch(`http://${HOST}:${server.port}/graphql`, {
        method: "POST",
        headers: { "x-api-key": secret, "content-type": "application/json" },
        body: JSON.stringify({ query: '{ math { sum(numbers: ["1"]) { decimal } } }' }),
      });
      // Wrong ones too: a refused key must not be logged either.
      await call(server, "GET", SUM, { key: `${secret}x` });
    }
    await call(server, "GET", "/admin/v1/keys");
    await call(server, "DELETE", `/admin/v1/keys/${ids[1]}`);
    server.signal("SIGTERM");
    expect(await server.waitExit(20_000)).toEqual({ code: 0, signal: null });

    const files = readdirSync(dataDir);
    expect(files.some((file) => file.startsWith("keys.sqlite"))).toBe(true);
    const stored = files
      .map((file) => readFileSync(join(dataDir, file)).toString("latin1"))
      .join("\n");
    // The scan can see what is there: the ids and names are stored.
    expect(stored).toContain(ids[0]);
    const printed = server.stdout + server.stderr;
    expect(printed).toContain(ids[0]);
    for (const secret of secrets) {
      expect(stored.includes(secret), "a secret in the store's files").toBe(false);
      expect(printed.includes(secret), "a secret in the log").toBe(false);
    }
  }, 120_000);
});
