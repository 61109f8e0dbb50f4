/**
 * The admin API (API.md §7) on SQLite and on PostgreSQL: every route of its table, each
 * refusal (401, 404, 422 with its loc and type, 503 with the store down), and each change
 * taking effect at once on the REST surface of the same process.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyDirectory } from "../src/access/keys/directory.js";
import type { ManagedKeys } from "../src/access/keys/managed.js";
import { type KeyStore, openKeyStore } from "../src/access/keys/store.js";
import { createUsageRecorder, utcDay } from "../src/access/keys/usage.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { allOperations, TEST_KEY } from "./helpers.js";
import { type Postgres, postgresBinDir, startPostgres } from "./postgres.js";

const operations = await allOperations();
const PG_MISSING = postgresBinDir() === undefined;
const ADMIN_TOKEN = "admin-token-0123456789-0123456789-abcdef";
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
const SUM = "/v1/math/sum?numbers=1,2";

/**
 * The store behind a switch: with `down` set every call rejects, as an unreachable
 * database's would.
 */
function switchable(store: KeyStore): {
  store: KeyStore;
  down: { value: boolean; only?: string };
} {
  const down: { value: boolean; only?: string } = { value: false };
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (property === "close" || property === "kind") return value.bind(target);
      return (...args: unknown[]) =>
        down.value && (down.only === undefined || down.only === property)
          ? Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432"))
          : value.apply(target, args);
    },
  });
  return { store: wrapped, down };
}

/** Managed keys over `store`, with a clock the test moves (the directory's). */
function managedOver(store: KeyStore, clock: { skewMs: number }): ManagedKeys {
  const directory = createKeyDirectory(store, { now: () => Date.now() + clock.skewMs });
  const usage = createUsageRecorder(store);
  return {
    store,
    directory,
    usage,
    async close() {
      directory.close();
      await usage.close().catch(() => {});
      await store.close();
    },
  };
}

function suite(kind: "sqlite" | "postgres") {
  let server: Postgres | undefined;
  let managed: ManagedKeys;
  let down: { value: boolean; only?: string };
  const clock = { skewMs: 0 };
  let app: FastifyInstance;
  const logLines: string[] = [];

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (kind === "postgres") {
      server = await startPostgres();
      databaseUrl = server.url;
    }
    const opened = await openKeyStore({
      dataDir: mkdtempSync(join(tmpdir(), "ucs-admin-")),
      databaseUrl,
    });
    const flaky = switchable(opened);
    down = flaky.down;
    managed = managedOver(flaky.store, clock);
    await managed.directory.start();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    app = await buildApp({
      config: loadConfig({
        API_KEYS: TEST_KEY,
        ADMIN_TOKEN,
        RATE_LIMIT: "1000",
        AUTH_FAILURE_LIMIT: "0",
      }),
      operations,
      logger: { level: "info", stream },
      managedKeys: managed,
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await managed?.close();
    await server?.stop();
  }, 60_000);

  const admin = (method: string, url: string, payload?: unknown) =>
    app.inject({
      method: method as "GET",
      url,
      headers: payload === undefined ? ADMIN : { ...ADMIN, "content-type": "application/json" },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const rest = (secret: string, url = SUM) => app.inject({ url, headers: { "x-api-key": secret } });
  async function createKey(body: Record<string, unknown> = { name: "k" }) {
    const response = await admin("POST", "/admin/v1/keys", body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Record<string, unknown> & { id: string; key: string };
  }
  /** The 422's problems as [loc, type]. */
  const problems = (body: string) =>
    (JSON.parse(body).detail as { loc: string[]; type: string }[]).map((p) => [
      p.loc.join("."),
      p.type,
    ]);

  it("POST /admin/v1/keys: 201, the key object and its secret once; the key serves at once", async () => {
    const created = await createKey({
      name: "billing",
      scopes: ["math", "hash/hmac-md5"],
      plan: { limit: 10, windowSeconds: 60 },
      expiresAt: "2100-01-01T00:00:00+01:00",
      meta: { owner: "team-a" },
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Za-z]{16}$/),
      prefix: (created.key as string).slice(0, 12),
      name: "billing",
      scopes: ["math", "hash/hmac-md5"],
      plan: { limit: 10, windowSeconds: 60 },
      expiresAt: "2099-12-31T23:00:00.000Z",
      disabled: false,
      meta: { owner: "team-a" },
      createdAt: expect.any(String),
      lastUsedAt: null,
      key: expect.stringMatching(/^ucs_[0-9A-Za-z]{40}$/),
    });
    expect((await rest(created.key)).statusCode).toBe(200);
    expect((await rest(created.key, "/v1/misc/status-code?code=200")).statusCode).toBe(403);
    // Defaults: every scope, the server's plan, no expiry, no meta.
    const plain = await createKey({ name: "plain" });
    expect(plain).toMatchObject({ scopes: ["*"], plan: null, expiresAt: null, meta: {} });
  });

  it("GET /admin/v1/keys/{id}: the key object without any hash; 404 unknown", async () => {
    const created = await createKey({ name: "shown" });
    const shown = await admin("GET", `/admin/v1/keys/${created.id}`);
    expect(shown.statusCode).toBe(200);
    const { key: _secret, ...object } = created;
    expect(shown.json()).toEqual(object);
    expect(shown.body).not.toContain(created.key);
    expect(Object.keys(shown.json()).sort()).toEqual(
      [
        "createdAt",
        "disabled",
        "expiresAt",
        "id",
        "lastUsedAt",
        "meta",
        "name",
        "plan",
        "prefix",
        "scopes",
      ].sort(),
    );
    for (const id of ["key_0000000000000000", "x".repeat(90)]) {
      const unknown = await admin("GET", `/admin/v1/keys/${id}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ detail: expect.any(String) });
    }
  });

  it("GET /admin/v1/keys: pages in creation order with nextCursor; a bad cursor is a 422", async () => {
    for (let i = 0; i < 3; i++) await createKey({ name: `page-${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const url: string = `/admin/v1/keys?limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const response = await admin("GET", url);
      expect(response.statusCode).toBe(200);
      const body = response.json() as { keys: { id: string }[]; nextCursor: string | null };
      expect(body.keys.length).toBeLessThanOrEqual(2);
      seen.push(...body.keys.map((key) => key.id));
      cursor = body.nextCursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    const all = (await admin("GET", "/admin/v1/keys?limit=100")).json();
    expect(all.keys.map((key: { id: string }) => key.id)).toEqual(seen);
    expect(all.keys[0]).not.toHaveProperty("hash");
    const bad = await admin("GET", "/admin/v1/keys?cursor=not-a-cursor");
    expect(bad.statusCode).toBe(422);
    expect(problems(bad.body)).toEqual([["query.cursor", "value_error"]]);
    for (const [limit, type] of [
      ["0", "greater_than_equal"],
      ["101", "less_than_equal"],
      ["many", "int_parsing"],
      // Digits only: what Number() would also read is refused.
      ["%2B5", "int_parsing"],
      ["%205", "int_parsing"],
      ["1e2", "int_parsing"],
      ["0x10", "int_parsing"],
      ["5.0", "int_parsing"],
    ]) {
      const response = await admin("GET", `/admin/v1/keys?limit=${limit}`);
      expect(response.statusCode).toBe(422);
      expect(problems(response.body)).toEqual([["query.limit", type]]);
    }
    for (const [cursor, type] of [
      ["", "string_too_short"],
      ["c".repeat(1001), "string_too_long"],
    ]) {
      const response = await admin("GET", `/admin/v1/keys?cursor=${cursor}`);
      expect(response.statusCode).toBe(422);
      expect(problems(response.body)).toEqual([["query.cursor", type]]);
    }
  });

  it("PATCH: each field, at once on REST; null plan and expiry; unknown id 404", async () => {
    const created = await createKey({ name: "patched", plan: { limit: 5, windowSeconds: 60 } });
    const patched = await admin("PATCH", `/admin/v1/keys/${created.id}`, {
      name: "renamed",
      scopes: ["hash"],
      expiresAt: "2100-01-01T00:00:00Z",
      meta: { ticket: 42 },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      id: created.id,
      name: "renamed",
      scopes: ["hash"],
      plan: { limit: 5, windowSeconds: 60 },
      expiresAt: "2100-01-01T00:00:00.000Z",
      meta: { ticket: 42 },
    });
    expect((await rest(created.key)).statusCode).toBe(403);
    const cleared = await admin("PATCH", `/admin/v1/keys/${created.id}`, {
      plan: null,
      expiresAt: null,
    });
    expect(cleared.json()).toMatchObject({ plan: null, expiresAt: null, name: "renamed" });
    // An empty patch changes nothing and answers the key.
    expect((await admin("PATCH", `/admin/v1/keys/${created.id}`, {})).json()).toEqual(
      cleared.json(),
    );
    const unknown = await admin("PATCH", "/admin/v1/keys/key_0000000000000000", { name: "x" });
    expect(unknown.statusCode).toBe(404);
  });

  it("PATCH expiresAt in the past expires the key at once", async () => {
    const created = await createKey({ name: "expiring" });
    expect((await rest(created.key)).statusCode).toBe(200);
    await admin("PATCH", `/admin/v1/keys/${created.id}`, { expiresAt: "2000-01-01T00:00:00Z" });
    expect((await rest(created.key)).statusCode).toBe(401);
  });

  it("disabled: refused at once with the unknown key's 401, and back when enabled", async () => {
    const created = await createKey({ name: "toggled" });
    const unknown = await rest(`ucs_${"x".repeat(40)}`);
    await admin("PATCH", `/admin/v1/keys/${created.id}`, { disabled: true });
    const refused = await rest(created.key);
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toBe(unknown.body);
    expect((await admin("GET", `/admin/v1/keys/${created.id}`)).json().disabled).toBe(true);
    await admin("PATCH", `/admin/v1/keys/${created.id}`, { disabled: false });
    expect((await rest(created.key)).statusCode).toBe(200);
  });

  it("a plan change holds at once: 429 past the new limit", async () => {
    const created = await createKey({ name: "planned", plan: { limit: 100, windowSeconds: 60 } });
    for (let i = 0; i < 3; i++) expect((await rest(created.key)).statusCode).toBe(200);
    await admin("PATCH", `/admin/v1/keys/${created.id}`, {
      plan: { limit: 1, windowSeconds: 60 },
    });
    const statuses: number[] = [];
    let policy: unknown;
    for (let i = 0; i < 2; i++) {
      const response = await rest(created.key);
      statuses.push(response.statusCode);
      policy = response.headers["ratelimit-policy"];
    }
    expect(statuses.at(-1)).toBe(429);
    expect(policy).toBe('"per-key";q=1;w=60');
  });

  it("DELETE: 204, then the key's 401 at once on REST and 404 on the admin API", async () => {
    const created = await createKey({ name: "revoked" });
    expect((await rest(created.key)).statusCode).toBe(200);
    const deleted = await admin("DELETE", `/admin/v1/keys/${created.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe("");
    expect((await rest(created.key)).statusCode).toBe(401);
    expect((await admin("GET", `/admin/v1/keys/${created.id}`)).statusCode).toBe(404);
    expect((await admin("DELETE", `/admin/v1/keys/${created.id}`)).statusCode).toBe(404);
    const listed = (await admin("GET", "/admin/v1/keys?limit=100")).json();
    expect(listed.keys.map((key: { id: string }) => key.id)).not.toContain(created.id);
  });

  it("roll with no overlap: a new secret at once, the old one refused at once", async () => {
    const created = await createKey({ name: "rolled", scopes: ["math"] });
    const rolled = await app.inject({
      method: "POST",
      url: `/admin/v1/keys/${created.id}/roll`,
      headers: ADMIN,
    });
    expect(rolled.statusCode).toBe(201);
    const body = rolled.json();
    expect(body).toMatchObject({ id: created.id, name: "rolled", scopes: ["math"] });
    expect(body.key).not.toBe(created.key);
    expect(body.prefix).toBe(body.key.slice(0, 12));
    expect((await rest(body.key)).statusCode).toBe(200);
    expect((await rest(created.key)).statusCode).toBe(401);
    // An empty body sent as JSON is no body too.
    const again = await app.inject({
      method: "POST",
      url: `/admin/v1/keys/${created.id}/roll`,
      headers: { ...ADMIN, "content-type": "application/json" },
      payload: "",
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it("roll with a 60 s overlap: both secrets work, then only the new one", async () => {
    const created = await createKey({ name: "overlapping" });
    const rolled = await admin("POST", `/admin/v1/keys/${created.id}/roll`, {
      overlapSeconds: 60,
    });
    expect(rolled.statusCode).toBe(201);
    const secret = rolled.json().key as string;
    expect((await rest(created.key)).statusCode).toBe(200);
    expect((await rest(secret)).statusCode).toBe(200);
    clock.skewMs = 61_000;
    try {
      expect((await rest(created.key)).statusCode).toBe(401);
      expect((await rest(secret)).statusCode).toBe(200);
    } finally {
      clock.skewMs = 0;
    }
    const unknown = await admin("POST", "/admin/v1/keys/key_0000000000000000/roll", {});
    expect(unknown.statusCode).toBe(404);
  });

  it("usage: the REST calls this process counted, per day and operation, with a range", async () => {
    const created = await createKey({ name: "counted" });
    for (let i = 0; i < 3; i++) await rest(created.key);
    await rest(created.key, "/v1/math/subtract?a=3&b=2");
    const response = await admin("GET", `/admin/v1/keys/${created.id}/usage`);
    expect(response.statusCode).toBe(200);
    const today = utcDay(Date.now());
    expect(response.json()).toEqual({
      id: created.id,
      usage: [
        { date: today, operation: "math/subtract", calls: 1, units: 1 },
        { date: today, operation: "math/sum", calls: 3, units: 3 },
      ],
    });
    const past = await admin(
      "GET",
      `/admin/v1/keys/${created.id}/usage?from=2001-01-01&to=2001-12-31`,
    );
    expect(past.json()).toEqual({ id: created.id, usage: [] });
    for (const [query, loc, type] of [
      ["from=2001-02-30", "query.from", "date_parsing"],
      ["to=yesterday", "query.to", "date_parsing"],
      ["from=2001-02-02&to=2001-02-01", "query.from", "value_error"],
      ["from=2000-01-01&to=2001-12-31", "query.from", "value_error"],
    ]) {
      const refused = await admin("GET", `/admin/v1/keys/${created.id}/usage?${query}`);
      expect(refused.statusCode, query).toBe(422);
      expect(problems(refused.body)).toEqual([[loc, type]]);
    }
    expect((await admin("GET", "/admin/v1/keys/key_0000000000000000/usage")).statusCode).toBe(404);
  });

  it("422: every invalid body, located under body with its Pydantic type", async () => {
    const cases: [string, string, unknown, [string, string][]][] = [
      ["POST", "/admin/v1/keys", {}, [["body.name", "missing"]]],
      ["POST", "/admin/v1/keys", { name: "" }, [["body.name", "string_too_short"]]],
      ["POST", "/admin/v1/keys", { name: "x".repeat(101) }, [["body.name", "string_too_long"]]],
      ["POST", "/admin/v1/keys", { name: 5 }, [["body.name", "string_type"]]],
      ["POST", "/admin/v1/keys", { name: "k", extra: 1 }, [["body.extra", "extra_forbidden"]]],
      ["POST", "/admin/v1/keys", { name: "k", scopes: "math" }, [["body.scopes", "list_type"]]],
      ["POST", "/admin/v1/keys", { name: "k", scopes: [] }, [["body.scopes", "too_short"]]],
      [
        "POST",
        "/admin/v1/keys",
        { name: "k", scopes: ["math", "Math!"] },
        [["body.scopes.1", "string_pattern_mismatch"]],
      ],
      [
        "POST",
        "/admin/v1/keys",
        // Spelled as the registry spells names: a letter first, no empty segment.
        { name: "k", scopes: ["9math", "-x", "hash//md5", "hash/", "hash/-md5"] },
        [
          ["body.scopes.0", "string_pattern_mismatch"],
          ["body.scopes.1", "string_pattern_mismatch"],
          ["body.scopes.2", "string_pattern_mismatch"],
          ["body.scopes.3", "string_pattern_mismatch"],
          ["body.scopes.4", "string_pattern_mismatch"],
        ],
      ],
      [
        "PATCH",
        "/admin/v1/keys/key_x",
        { scopes: ["math", "crypto/checksum/"] },
        [["body.scopes.1", "string_pattern_mismatch"]],
      ],
      [
        "POST",
        "/admin/v1/keys",
        { name: "k", plan: { limit: 0, windowSeconds: 86401 } },
        [
          ["body.plan.limit", "greater_than_equal"],
          ["body.plan.windowSeconds", "less_than_equal"],
        ],
      ],
      [
        "POST",
        "/admin/v1/keys",
        { name: "k", plan: { limit: 1.5, windowSeconds: "60" } },
        [
          ["body.plan.limit", "int_type"],
          ["body.plan.windowSeconds", "int_type"],
        ],
      ],
      [
        "POST",
        "/admin/v1/keys",
        { name: "k", plan: { limit: 1 } },
        [["body.plan.windowSeconds", "missing"]],
      ],
      ["POST", "/admin/v1/keys", { name: "k", plan: 5 }, [["body.plan", "dict_type"]]],
      [
        "POST",
        "/admin/v1/keys",
        { name: "k", expiresAt: "tomorrow" },
        [["body.expiresAt", "datetime_parsing"]],
      ],
      [
        "POST",
        "/admin/v1/keys",
        { name: "k", expiresAt: "2001-01-01T00:00:00Z" },
        [["body.expiresAt", "datetime_future"]],
      ],
      ["POST", "/admin/v1/keys", { name: "k", meta: [1] }, [["body.meta", "dict_type"]]],
      [
        "POST",
        "/admin/v1/keys",
        { name: "k", meta: { note: "x".repeat(1100) } },
        [["body.meta", "value_error"]],
      ],
      ["POST", "/admin/v1/keys", [], [["body", "model_attributes_type"]]],
      ["POST", "/admin/v1/keys", undefined, [["body", "missing"]]],
      ["PATCH", "/admin/v1/keys/key_x", { disabled: "yes" }, [["body.disabled", "bool_type"]]],
      ["PATCH", "/admin/v1/keys/key_x", { id: "key_y" }, [["body.id", "extra_forbidden"]]],
      ["PATCH", "/admin/v1/keys/key_x", { meta: null }, [["body.meta", "dict_type"]]],
      ["PATCH", "/admin/v1/keys/key_x", undefined, [["body", "missing"]]],
      [
        "POST",
        "/admin/v1/keys/key_x/roll",
        { overlapSeconds: 604801 },
        [["body.overlapSeconds", "less_than_equal"]],
      ],
      [
        "POST",
        "/admin/v1/keys/key_x/roll",
        { overlapSeconds: -1 },
        [["body.overlapSeconds", "greater_than_equal"]],
      ],
      ["POST", "/admin/v1/keys/key_x/roll", { overlap: 5 }, [["body.overlap", "extra_forbidden"]]],
    ];
    for (const [method, url, body, expected] of cases) {
      const response = await admin(method, url, body);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(422);
      expect(problems(response.body), JSON.stringify(body)).toEqual(expected);
    }
    const pattern = await admin("POST", "/admin/v1/keys", { name: "k", scopes: ["Math!"] });
    expect(pattern.json().detail[0]).toEqual({
      loc: ["body", "scopes", "0"],
      msg: "String should match pattern '^(\\*|[a-z][a-z0-9-]*(\\/[a-z][a-z0-9-]*)*)$'",
      type: "string_pattern_mismatch",
      ctx: { pattern: "^(\\*|[a-z][a-z0-9-]*(\\/[a-z][a-z0-9-]*)*)$" },
    });
    // Nothing was created by any of them.
    const names = (await admin("GET", "/admin/v1/keys?limit=100"))
      .json()
      .keys.map((key: { name: string }) => key.name);
    expect(names).not.toContain("k");
  });

  it("401 without the token, with a wrong one, with a key instead; the scheme in any case", async () => {
    const unknown = { detail: "Send the admin token as a Bearer token" };
    for (const headers of [
      {},
      { authorization: "Bearer wrong-token-0123456789-0123456789-abcdef" },
      { authorization: ADMIN_TOKEN },
      { "x-api-key": TEST_KEY },
    ]) {
      const response = await app.inject({ url: "/admin/v1/keys", headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(unknown);
      expect(response.headers["www-authenticate"]).toBe('Bearer realm="admin"');
    }
    // Before the body is read: a wrong token with a bad body is still a 401.
    const refused = await app.inject({
      method: "POST",
      url: "/admin/v1/keys",
      headers: { "content-type": "application/json" },
      payload: "{",
    });
    expect(refused.statusCode).toBe(401);
    const lower = await app.inject({
      url: "/admin/v1/keys",
      headers: { authorization: `bearer ${ADMIN_TOKEN}` },
    });
    expect(lower.statusCode).toBe(200);
  });

  it("store down: reads and writes answer 503 with Retry-After; REST keeps serving held keys", async () => {
    const created = await createKey({ name: "held" });
    down.value = true;
    try {
      for (const [method, url, body] of [
        ["POST", "/admin/v1/keys", { name: "lost" }],
        ["GET", "/admin/v1/keys", undefined],
        ["GET", `/admin/v1/keys/${created.id}`, undefined],
        ["PATCH", `/admin/v1/keys/${created.id}`, { name: "x" }],
        ["DELETE", `/admin/v1/keys/${created.id}`, undefined],
        ["POST", `/admin/v1/keys/${created.id}/roll`, {}],
        ["GET", `/admin/v1/keys/${created.id}/usage`, undefined],
      ] as const) {
        const response = await admin(method, url, body);
        expect(response.statusCode, `${method} ${url}`).toBe(503);
        expect(response.json()).toEqual({ detail: "Key store unavailable" });
        expect(response.headers["retry-after"]).toBe("5");
      }
      expect((await rest(created.key)).statusCode).toBe(200);
    } finally {
      down.value = false;
    }
  });

  it("a write whose read-back fails still answers: the secret is not lost; the poll catches up", async () => {
    Object.assign(down, { value: true, only: "changedSince" });
    let created: Awaited<ReturnType<typeof createKey>>;
    try {
      created = await createKey({ name: "read-back failed" });
    } finally {
      Object.assign(down, { value: false, only: undefined });
    }
    await managed.directory.refresh();
    expect((await rest(created.key)).statusCode).toBe(200);
  });

  it("secrets never reach the log: the request line has the path only", async () => {
    const before = logLines.length;
    const created = await createKey({ name: "logged" });
    const rolled = await admin("POST", `/admin/v1/keys/${created.id}/roll`, {});
    await rest(created.key);
    await app.inject({ url: "/admin/v1/keys", headers: { authorization: "Bearer wrong" } });
    const lines = logLines.slice(before).join("");
    expect(lines).toContain('"path":"/admin/v1/keys"');
    for (const secret of [created.key, rolled.json().key, ADMIN_TOKEN, "wrong"]) {
      expect(lines).not.toContain(secret);
    }
  });
}

describe("admin API on SQLite", () => suite("sqlite"));
describe.skipIf(PG_MISSING && !process.env.CI)("admin API on PostgreSQL", () => suite("postgres"));

describe("admin API off", () => {
  it("without ADMIN_TOKEN, or without a key store, every /admin/v1 path is the usual 404", async () => {
    const store = await openKeyStore({ dataDir: mkdtempSync(join(tmpdir(), "ucs-admin-off-")) });
    const managed = managedOver(store, { skewMs: 0 });
    await managed.directory.start();
    const apps = [
      await buildApp({
        config: loadConfig({ API_KEYS: TEST_KEY }),
        operations,
        logger: false,
        managedKeys: managed,
      }),
      await buildApp({
        config: loadConfig({ API_KEYS: TEST_KEY, ADMIN_TOKEN }),
        operations,
        logger: false,
      }),
    ];
    try {
      for (const app of apps) {
        const normal = await app.inject({ url: "/no/such/path" });
        for (const [method, url] of [
          ["POST", "/admin/v1/keys"],
          ["GET", "/admin/v1/keys"],
          ["GET", "/admin/v1/keys/key_0000000000000000"],
          ["PATCH", "/admin/v1/keys/key_0000000000000000"],
          ["DELETE", "/admin/v1/keys/key_0000000000000000"],
          ["POST", "/admin/v1/keys/key_0000000000000000/roll"],
          ["GET", "/admin/v1/keys/key_0000000000000000/usage"],
        ] as const) {
          const response = await app.inject({ method, url, headers: ADMIN });
          expect(response.statusCode, `${method} ${url}`).toBe(404);
          expect(response.body).toBe(normal.body);
        }
      }
    } finally {
      for (const app of apps) await app.close();
      await managed.close();
    }
  });
});
