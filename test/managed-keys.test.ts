/**
 * Managed keys through the service (API.md §7), on SQLite and on PostgreSQL: a key from
 * the store is a principal on every request, with its scopes and its own plan; a revoked,
 * disabled or expired key gets the same 401 as an unknown one; `GET /v1/me` tells its
 * holder who they are, what is left and today's usage; every surface counts usage.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ManagedKeys, openManagedKeys } from "../src/access/keys/managed.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { keyIdOf } from "../src/http/auth.js";
import { allOperations, TEST_KEY } from "./helpers.js";
import { type Postgres, postgresBinDir, startPostgres } from "./postgres.js";

const operations = await allOperations();
const PG_MISSING = postgresBinDir() === undefined;
const silent = { warn() {} };

function suite(kind: "sqlite" | "postgres") {
  let server: Postgres | undefined;
  let managed: ManagedKeys;
  let app: FastifyInstance;

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (kind === "postgres") {
      server = await startPostgres();
      databaseUrl = server.url;
    }
    managed = await openManagedKeys(
      { dataDir: mkdtempSync(join(tmpdir(), "ucs-managed-")), databaseUrl },
      silent,
    );
    app = await buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY, RATE_LIMIT: "100", AUTH_FAILURE_LIMIT: "0" }),
      operations,
      logger: false,
      managedKeys: managed,
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await managed?.close();
    await server?.stop();
  }, 60_000);

  const get = (url: string, key: string) => app.inject({ url, headers: { "x-api-key": key } });
  async function create(input: Parameters<ManagedKeys["store"]["create"]>[0]) {
    const created = await managed.store.create(input);
    await managed.directory.refresh();
    return created;
  }

  it("a managed key serves, with its own plan instead of the server's", async () => {
    const { secret } = await create({ name: "small", plan: { limit: 2, windowSeconds: 60 } });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await get("/v1/math/sum?numbers=1,2", secret)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await get("/v1/math/sum?numbers=1", secret);
    expect(refused.headers["ratelimit-policy"]).toBe('"per-key";q=2;w=60');
  });

  it("scopes: in scope 200, out of scope 403, on REST", async () => {
    const { secret } = await create({ name: "math only", scopes: ["math"] });
    expect((await get("/v1/math/sum?numbers=1", secret)).statusCode).toBe(200);
    const refused = await get("/v1/misc/status-code?code=200", secret);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail: "This API key's scopes do not include misc/status-code",
    });
  });

  it("revoked, disabled and expired keys get the unknown key's 401, body and headers", async () => {
    const unknown = await get("/v1/math/sum?numbers=1", `ucs_${"x".repeat(40)}`);
    const revoked = await create({ name: "revoked" });
    const disabled = await create({ name: "disabled" });
    const expired = await create({ name: "expired", expiresAt: "2000-01-01T00:00:00Z" });
    expect((await get("/v1/math/sum?numbers=1", revoked.secret)).statusCode).toBe(200);
    await managed.store.revoke(revoked.record.id);
    await managed.store.update(disabled.record.id, { disabled: true });
    await managed.directory.refresh();
    for (const secret of [revoked.secret, disabled.secret, expired.secret]) {
      const response = await get("/v1/math/sum?numbers=1", secret);
      expect(response.statusCode).toBe(401);
      expect(response.body).toBe(unknown.body);
      expect(response.headers["www-authenticate"]).toBe(unknown.headers["www-authenticate"]);
    }
  });

  it("GET /v1/me: the key, its scopes and plan, what is left, today's usage from every surface", async () => {
    const { record, secret } = await create({
      name: "me",
      scopes: ["math", "hash/hmac-md5"],
      plan: { limit: 50, windowSeconds: 3600 },
      expiresAt: "2100-01-01T00:00:00.000Z",
    });
    await get("/v1/math/sum?numbers=1,2", secret);
    await app.inject({
      method: "POST",
      url: "/graphql",
      headers: { "x-api-key": secret, "content-type": "application/json" },
      payload: {
        query:
          '{ a: math { sum(numbers: ["1"]) { decimal } } b: math { sum(numbers: ["2"]) { decimal } } }',
      },
    });
    await app.inject({
      method: "POST",
      url: "/mcp",
      headers: {
        "x-api-key": secret,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      },
      payload: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "math_sum", arguments: { numbers: ["1"] } },
      },
    });
    const me = await get("/v1/me", secret);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      id: record.id,
      prefix: record.prefix,
      name: "me",
      scopes: ["math", "hash/hmac-md5"],
      plan: { limit: 50, windowSeconds: 3600 },
      remaining: 46,
      resetSeconds: expect.any(Number),
      expiresAt: "2100-01-01T00:00:00.000Z",
      today: { calls: 4, units: 4 },
    });
    expect(me.headers.ratelimit).toMatch(/r=46/);
    // Charged nothing, and written to the store as usage on the next flush.
    expect((await get("/v1/me", secret)).json().remaining).toBe(46);
    await managed.usage.flush();
    const rows = await managed.store.usage(record.id, "2000-01-01", "2100-01-01");
    expect(rows.map((row) => [row.operation, row.calls, row.units])).toEqual([["math/sum", 4, 4]]);
  });

  it("GET /v1/me for a static key: a stable id, no name, no prefix, the server's plan", async () => {
    const me = await get("/v1/me", TEST_KEY);
    expect(me.json()).toMatchObject({
      id: keyIdOf(TEST_KEY),
      prefix: null,
      name: null,
      scopes: ["*"],
      plan: { limit: 100, windowSeconds: 60 },
      remaining: expect.any(Number),
      expiresAt: null,
    });
  });

  it("GET /v1/me needs a key", async () => {
    expect((await app.inject({ url: "/v1/me" })).statusCode).toBe(401);
  });
}

describe("managed keys on SQLite", () => suite("sqlite"));
describe.skipIf(PG_MISSING && !process.env.CI)("managed keys on PostgreSQL", () =>
  suite("postgres"),
);
