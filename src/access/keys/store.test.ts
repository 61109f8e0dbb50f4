/**
 * One suite, run on embedded SQLite (a temporary DATA_DIR) and on PostgreSQL (a throwaway
 * cluster from test/postgres.ts). Without PostgreSQL's binaries the PostgreSQL run is
 * skipped with a message, except under CI (env CI set), where .ci/run installs them: there
 * it fails.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/lib/free-port.js";
import { type Postgres, postgresBinDir, startPostgres } from "../../../test/postgres.js";
import {
  hashSecret,
  InvalidCursorError,
  type KeyRecord,
  type KeyStore,
  openKeyStore,
  quietConnectionErrors,
  randomBase62,
} from "./store.js";

const PG_MISSING = postgresBinDir() === undefined;
const IN_CI = Boolean(process.env.CI);
if (PG_MISSING && !IN_CI) {
  console.warn(
    "[postgres] SKIPPED the PostgreSQL half of src/access/keys/store.test.ts: PostgreSQL is " +
      "not installed (apt-get install postgresql); under CI (env CI set) this is a failure",
  );
}

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SECRET = /^ucs_[0-9A-Za-z]{40}$/;
const DAY = "2026-11-27";

/** One empty database: a store opener (call it again for a second process's store). */
interface Target {
  open(): Promise<KeyStore>;
  /** Every byte the database holds, as text (SQLite: its files; PostgreSQL: every row). */
  dump(): Promise<string>;
  /** What the child-process test passes to openKeyStore. */
  options: { dataDir: string; databaseUrl?: string };
}

interface Backend {
  /** A new, empty database. */
  fresh(): Promise<Target>;
  /** Whatever the backend started, stopped. */
  stop(): Promise<void>;
}

function sqliteBackend(): Backend {
  const dirs: string[] = [];
  return {
    async fresh() {
      const dataDir = mkdtempSync(join(tmpdir(), "ucs-keys-"));
      dirs.push(dataDir);
      return {
        options: { dataDir },
        open: () => openKeyStore({ dataDir }),
        // The main file and its write-ahead log: a secret in either would be on disk.
        dump: async () =>
          readdirSync(dataDir)
            .map((name) => readFileSync(join(dataDir, name)).toString("latin1"))
            .join("\n"),
      };
    },
    async stop() {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresBackend(): Backend {
  let server: Postgres | undefined;
  let count = 0;
  return {
    async fresh() {
      if (!server) {
        if (PG_MISSING) {
          throw new Error(
            "PostgreSQL is not installed, and CI is set: .ci/run must install it " +
              "(apt-get install -y postgresql)",
          );
        }
        server = await startPostgres();
      }
      const name = `store_${++count}`;
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      try {
        await admin.query(`create database ${name}`);
      } finally {
        await admin.end();
      }
      const databaseUrl = server.url.replace(/\/[^/]+$/, `/${name}`);
      const options = { dataDir: "/nonexistent/unused", databaseUrl };
      return {
        options,
        open: () => openKeyStore(options),
        dump: async () => {
          const client = new pg.Client({ connectionString: databaseUrl });
          await client.connect();
          try {
            const tables = await client.query<{ name: string }>(
              "select table_name as name from information_schema.tables where table_schema = 'public'",
            );
            const parts: string[] = [];
            for (const { name: table } of tables.rows) {
              const rows = await client.query(`select * from "${table}"`);
              parts.push(table, JSON.stringify(rows.rows));
            }
            return parts.join("\n");
          } finally {
            await client.end();
          }
        },
      };
    },
    async stop() {
      await server?.stop();
    },
  };
}

/** Stores opened by a test, closed after it even when it fails. */
function opened() {
  const stores: KeyStore[] = [];
  return {
    async open(target: Target) {
      const store = await target.open();
      stores.push(store);
      return store;
    },
    async closeAll() {
      for (const store of stores.splice(0)) await store.close().catch(() => {});
    },
  };
}

const byOrder = (a: KeyRecord, b: KeyRecord) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1;

function storeSuite(kind: "sqlite" | "postgres", make: () => Backend) {
  let backend: Backend;
  const stores = opened();
  let target: Target;
  let store: KeyStore;

  beforeAll(() => {
    backend = make();
  });
  afterAll(async () => {
    await stores.closeAll();
    await backend.stop();
  }, 60_000);

  const fresh = async () => {
    await stores.closeAll();
    target = await backend.fresh();
    store = await stores.open(target);
  };

  it("opens an empty store of its kind", { timeout: 60_000 }, async () => {
    await fresh();
    expect(store.kind).toBe(kind);
    expect(await store.version()).toBe(0);
    expect(await store.changedSince(0)).toEqual({ version: 0, records: [] });
  });

  it("creates a key: the secret once, its hash and prefix kept, defaults filled", async () => {
    await fresh();
    const { record, secret } = await store.create({ name: "first" });
    expect(secret).toMatch(SECRET);
    expect(record).toMatchObject({
      name: "first",
      prefix: secret.slice(0, 12),
      hash: hashSecret(secret),
      scopes: ["*"],
      plan: null,
      expiresAt: null,
      disabled: false,
      meta: {},
      lastUsedAt: null,
      revokedAt: null,
      previousHash: null,
      previousValidUntil: null,
      version: 1,
    });
    expect(record.id).toMatch(/^key_[0-9A-Za-z]{16}$/);
    expect(Date.parse(record.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(await store.get(record.id)).toEqual(record);
    expect(await store.get("key_unknown")).toBeUndefined();

    const full = await store.create({
      name: "full",
      scopes: ["math", "hash/hmac-md5"],
      plan: { limit: 100, windowSeconds: 3600 },
      expiresAt: "2030-01-02T03:04:05+02:00",
      meta: { team: "billing", n: 3, nested: { ok: true } },
    });
    expect(full.secret).not.toBe(secret);
    expect(await store.get(full.record.id)).toMatchObject({
      scopes: ["math", "hash/hmac-md5"],
      plan: { limit: 100, windowSeconds: 3600 },
      expiresAt: "2030-01-02T01:04:05.000Z",
      meta: { team: "billing", n: 3, nested: { ok: true } },
      version: 2,
    });
  });

  it("lists in (createdAt, id) order, page by page, without revoked keys", async () => {
    await fresh();
    const created: KeyRecord[] = [];
    for (let i = 0; i < 7; i++) created.push((await store.create({ name: `k${i}` })).record);
    await store.revoke(created[3]?.id ?? "");
    const expected = created.filter((_, i) => i !== 3).sort(byOrder);

    const seen: KeyRecord[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const answer = await store.list({ limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...answer.keys);
      sizes.push(answer.keys.length);
      if (answer.nextCursor === null) break;
      cursor = answer.nextCursor;
    }
    expect(sizes).toEqual([2, 2, 2]);
    expect(seen.map((k) => k.id)).toEqual(expected.map((k) => k.id));
    expect((await store.list({ limit: 100 })).keys.map((k) => k.id)).toEqual(
      expected.map((k) => k.id),
    );
    expect(await store.list({ limit: 6 })).toMatchObject({ nextCursor: null });
    await expect(store.list({ limit: 2, cursor: "not-a-cursor" })).rejects.toBeInstanceOf(
      InvalidCursorError,
    );
  });

  it("updates fields, bumping the version; unknown and revoked keys are undefined", async () => {
    await fresh();
    const { record } = await store.create({
      name: "old",
      plan: { limit: 5, windowSeconds: 60 },
      expiresAt: "2030-01-01T00:00:00Z",
    });
    const updated = await store.update(record.id, {
      name: "new",
      scopes: ["stats"],
      disabled: true,
      meta: { a: 1 },
    });
    expect(updated).toEqual({
      ...record,
      name: "new",
      scopes: ["stats"],
      disabled: true,
      meta: { a: 1 },
      version: record.version + 1,
    });
    expect(await store.get(record.id)).toEqual(updated);
    const cleared = await store.update(record.id, { plan: null, expiresAt: null, disabled: false });
    expect(cleared).toMatchObject({ plan: null, expiresAt: null, disabled: false, version: 3 });
    expect(await store.update(record.id, {})).toEqual(cleared);
    expect(await store.version()).toBe(3);

    expect(await store.update("key_unknown", { name: "x" })).toBeUndefined();
    expect(await store.revoke(record.id)).toBe(true);
    expect(await store.update(record.id, { name: "x" })).toBeUndefined();
    expect(await store.version()).toBe(4);
  });

  it("revokes softly: refused from then on, the row and its usage kept", async () => {
    await fresh();
    const { record } = await store.create({ name: "gone" });
    await store.addUsage(
      [{ keyId: record.id, date: DAY, operation: "math/sum", calls: 2, units: 2 }],
      new Map(),
    );
    expect(await store.revoke(record.id)).toBe(true);
    expect(await store.get(record.id)).toBeUndefined();
    expect(await store.revoke(record.id)).toBe(false);
    expect(await store.revoke("key_unknown")).toBe(false);
    const { records } = await store.changedSince(0);
    expect(records).toHaveLength(1);
    expect(records[0]?.revokedAt).not.toBeNull();
    expect(await store.usage(record.id, DAY, DAY)).toHaveLength(1);
  });

  it("rolls: a new secret on the same key, the old one's hash valid for the overlap", async () => {
    await fresh();
    const { record, secret } = await store.create({
      name: "rolled",
      scopes: ["math"],
      plan: { limit: 9, windowSeconds: 9 },
    });
    const before = Date.now();
    const rolled = await store.roll(record.id, 3600);
    expect(rolled?.secret).toMatch(SECRET);
    expect(rolled?.secret).not.toBe(secret);
    const next = rolled?.record;
    expect(next).toMatchObject({
      id: record.id,
      name: "rolled",
      scopes: ["math"],
      plan: { limit: 9, windowSeconds: 9 },
      createdAt: record.createdAt,
      hash: hashSecret(rolled?.secret ?? ""),
      prefix: rolled?.secret.slice(0, 12),
      previousHash: record.hash,
      version: record.version + 1,
    });
    const until = Date.parse(next?.previousValidUntil ?? "");
    expect(until).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);
    expect(await store.get(record.id)).toEqual(next);

    // Rolling again keeps only the secret just replaced; no overlap keeps none.
    const again = await store.roll(record.id, 60);
    expect(again?.record.previousHash).toBe(next?.hash);
    const hard = await store.roll(record.id, 0);
    expect(hard?.record).toMatchObject({ previousHash: null, previousValidUntil: null });

    expect(await store.roll("key_unknown", 60)).toBeUndefined();
    await store.revoke(record.id);
    expect(await store.roll(record.id, 60)).toBeUndefined();
  });

  it("bumps the version once per change; changedSince gives the changes, revoked ones too", async () => {
    await fresh();
    const a = (await store.create({ name: "a" })).record;
    const b = (await store.create({ name: "b" })).record;
    expect(await store.version()).toBe(2);
    const mark = await store.version();
    await store.update(a.id, { name: "a2" });
    await store.revoke(b.id);
    await store.addUsage(
      [{ keyId: a.id, date: DAY, operation: "math/sum", calls: 1, units: 1 }],
      new Map([[a.id, new Date().toISOString()]]),
    );
    expect(await store.version()).toBe(4);

    const changes = await store.changedSince(mark);
    expect(changes.version).toBe(4);
    expect(changes.records.map((r) => [r.id, r.version])).toEqual([
      [a.id, 3],
      [b.id, 4],
    ]);
    expect(changes.records[1]?.revokedAt).not.toBeNull();
    expect(await store.changedSince(4)).toEqual({ version: 4, records: [] });
    expect((await store.changedSince(0)).records).toHaveLength(2);

    // Another process's store sees the same counter and changes.
    const other = await stores.open(target);
    await other.update(a.id, { disabled: true });
    expect(await store.changedSince(4)).toMatchObject({
      version: 5,
      records: [{ id: a.id, disabled: true, version: 5 }],
    });
  });

  it("adds usage up across calls and stores; lastUsedAt only moves forward", async () => {
    await fresh();
    const { record } = await store.create({ name: "busy" });
    const other = await stores.open(target);
    const id = record.id;
    await store.addUsage(
      [
        { keyId: id, date: DAY, operation: "math/sum", calls: 2, units: 2 },
        { keyId: id, date: DAY, operation: "math/sum", calls: 1, units: 4 },
        { keyId: id, date: DAY, operation: "hash/md5", calls: 1, units: 1 },
        { keyId: id, date: "2026-11-26", operation: "math/sum", calls: 7, units: 7 },
        { keyId: "static_abc", date: DAY, operation: "math/sum", calls: 1, units: 1 },
      ],
      new Map([[id, "2026-11-27T10:00:00.000Z"]]),
    );
    await other.addUsage(
      [{ keyId: id, date: DAY, operation: "math/sum", calls: 10, units: 20 }],
      new Map([[id, "2026-11-27T12:00:00+01:00"]]),
    );
    await other.addUsage([], new Map([[id, "2026-11-27T09:00:00.000Z"]]));
    await store.addUsage([], new Map());

    expect(await store.usage(id, DAY, DAY)).toEqual([
      { keyId: id, date: DAY, operation: "hash/md5", calls: 1, units: 1 },
      { keyId: id, date: DAY, operation: "math/sum", calls: 13, units: 26 },
    ]);
    expect(await other.usage(id, "2026-11-01", "2026-11-30")).toEqual([
      { keyId: id, date: "2026-11-26", operation: "math/sum", calls: 7, units: 7 },
      { keyId: id, date: DAY, operation: "hash/md5", calls: 1, units: 1 },
      { keyId: id, date: DAY, operation: "math/sum", calls: 13, units: 26 },
    ]);
    expect(await store.usage("static_abc", DAY, DAY)).toHaveLength(1);
    expect(await store.usage(id, "2026-11-28", "2026-12-31")).toEqual([]);
    // 12:00+01:00 is 11:00Z: the latest; the 09:00Z report came later but is older.
    expect((await store.get(id))?.lastUsedAt).toBe("2026-11-27T11:00:00.000Z");
    // Usage is not a key change: caches need not reload.
    expect(await store.version()).toBe(1);
  });

  it("migrates once: a second open keeps the data and the schema", async () => {
    await fresh();
    const { record } = await store.create({ name: "kept" });
    await stores.closeAll();
    const again = await stores.open(target);
    const third = await stores.open(target);
    expect(await again.get(record.id)).toEqual(record);
    expect(await third.version()).toBe(1);
    await third.create({ name: "more" });
    expect((await again.list({ limit: 10 })).keys).toHaveLength(2);
  });

  it("keeps no secret: neither the database nor its files hold one", async () => {
    await fresh();
    const secrets: string[] = [];
    const hashes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { record, secret } = await store.create({ name: `s${i}`, meta: { i } });
      secrets.push(secret);
      const rolled = await store.roll(record.id, 600);
      secrets.push(rolled?.secret ?? "");
      hashes.push(rolled?.record.hash ?? "", record.hash);
    }
    const first = (await store.list({ limit: 1 })).keys[0];
    await store.update(first?.id ?? "", { name: "renamed" });
    await stores.closeAll();
    const dump = await target.dump();
    // The dump does see the keys (else the scan proves nothing)...
    for (const hash of hashes) expect(dump).toContain(hash);
    // ...and no secret, whole or past its display prefix.
    for (const secret of secrets) {
      expect(secret).toMatch(SECRET);
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(secret.slice(12));
    }
  });

  it("shares one database between processes opening and writing at once", {
    timeout: 60_000,
  }, async () => {
    await stores.closeAll();
    const target2 = await backend.fresh();
    const { record } = await (await stores.open(target2)).create({ name: "shared" });
    await stores.closeAll();
    const fresh3 = await backend.fresh(); // never opened: both children migrate it at once
    const script = join(mkdtempSync(join(tmpdir(), "ucs-keys-child-")), "child.mts");
    writeFileSync(
      script,
      `import { openKeyStore } from ${JSON.stringify(join(ROOT, "src/access/keys/store.ts"))};
const [options, keyId, rounds] = JSON.parse(process.argv[2]);
const stores = [await openKeyStore(options[0]), await openKeyStore(options[1])];
for (let i = 0; i < rounds; i++) {
  for (const store of stores) {
    await store.addUsage([{ keyId, date: "${DAY}", operation: "math/sum", calls: 1, units: 2 }], new Map());
  }
}
await stores[1].create({ name: "child" });
for (const store of stores) await store.close();
`,
    );
    const ROUNDS = 15;
    const child = () =>
      new Promise<string>((resolve, reject) => {
        const argument = JSON.stringify([[target2.options, fresh3.options], record.id, ROUNDS]);
        const proc = spawn(process.execPath, ["--import", "tsx", script, argument], {
          cwd: ROOT,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        proc.stdout.on("data", (chunk) => {
          output += chunk;
        });
        proc.stderr.on("data", (chunk) => {
          output += chunk;
        });
        const timer = setTimeout(() => proc.kill("SIGKILL"), 50_000);
        proc.on("error", reject);
        proc.on("close", (code) => {
          clearTimeout(timer);
          if (code === 0) resolve(output);
          else reject(new Error(`child exited ${code}: ${output}`));
        });
      });
    const outputs = await Promise.all([child(), child()]).finally(() =>
      rmSync(join(script, ".."), { recursive: true, force: true }),
    );
    // Quiet: node:sqlite's ExperimentalWarning is not printed.
    expect(outputs).toEqual(["", ""]);
    const shared = await stores.open(target2);
    expect(await shared.usage(record.id, DAY, DAY)).toMatchObject([
      { calls: 2 * ROUNDS, units: 4 * ROUNDS },
    ]);
    const migratedTogether = await stores.open(fresh3);
    expect((await migratedTogether.list({ limit: 10 })).keys).toHaveLength(2);
    expect(await migratedTogether.usage(record.id, DAY, DAY)).toMatchObject([
      { calls: 2 * ROUNDS, units: 4 * ROUNDS },
    ]);
  });
}

describe("secrets", () => {
  it("are ucs_ and 40 base62 characters, drawn without bias", () => {
    expect(randomBase62(16)).toMatch(/^[0-9A-Za-z]{16}$/);
    // Folding bytes mod 62 would make "0"…"7" (256 = 4 × 62 + 8) 25% likelier: ≈ 2480
    // each here against 2000; the bounds are about 7 standard deviations wide.
    const counts = new Map<string, number>();
    for (const char of randomBase62(62 * 2000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(1700);
      expect(count).toBeLessThan(2300);
    }
    expect(hashSecret("ucs_x")).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("key store on SQLite", () => {
  storeSuite("sqlite", sqliteBackend);

  it("shares one connection among the stores of one file in one process", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ucs-keys-"));
    try {
      const [a, b] = await Promise.all([openKeyStore({ dataDir }), openKeyStore({ dataDir })]);
      const started = Date.now();
      // Two connections in one thread would wait on each other's write lock: a stall of
      // the busy timeout, then "database is locked".
      const created = await Promise.all([
        a.create({ name: "a" }),
        b.create({ name: "b" }),
        a.addUsage([{ keyId: "k", date: DAY, operation: "x", calls: 1, units: 1 }], new Map()),
        b.addUsage([{ keyId: "k", date: DAY, operation: "x", calls: 1, units: 1 }], new Map()),
      ]);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(created).toHaveLength(4);
      await a.close();
      await a.close();
      // b still works after a closed; a new store after both closed opens the file again.
      expect(await b.usage("k", DAY, DAY)).toMatchObject([{ calls: 2 }]);
      await b.close();
      const c = await openKeyStore({ dataDir });
      expect(await c.version()).toBe(2);
      await c.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("rejects at open, saying why, when its directory cannot be made", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ucs-keys-bad-"));
    try {
      // A path under a regular file: unwritable even for root.
      writeFileSync(join(dir, "file"), "");
      const dataDir = join(dir, "file", "data");
      await expect(openKeyStore({ dataDir })).rejects.toThrow(
        `cannot open the SQLite key store ${join(dataDir, "keys.sqlite")}: ENOTDIR`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rejects at open, saying why, when its file is not a database", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ucs-keys-bad-"));
    try {
      writeFileSync(join(dataDir, "keys.sqlite"), "not a database, ".repeat(100));
      await expect(openKeyStore({ dataDir })).rejects.toThrow(
        /^cannot open the SQLite key store .*keys\.sqlite: .*file is not a database/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // Root writes anywhere; the test above covers an unusable path for root.
  it.skipIf(process.getuid?.() === 0)("rejects at open in a read-only directory", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ucs-keys-ro-"));
    try {
      chmodSync(dataDir, 0o500);
      await expect(openKeyStore({ dataDir })).rejects.toThrow(
        /^cannot open the SQLite key store .*keys\.sqlite: .*unable to open database file/,
      );
    } finally {
      chmodSync(dataDir, 0o700);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// Needs no PostgreSQL server: nothing listens where it connects.
describe("PostgreSQL connections that break", () => {
  it("are heard idle and checked out: a stopped server ends no process", () => {
    const pool = new pg.Pool();
    quietConnectionErrors(pool);
    const client = new pg.Client();
    // The pool announces each client it connects; a checked-out one reports on itself.
    pool.emit("connect", client);
    const broken = new Error("Connection terminated unexpectedly");
    expect(() => client.emit("error", broken)).not.toThrow();
    expect(() => pool.emit("error", broken, client)).not.toThrow();
    expect(() => new pg.Client().emit("error", broken)).toThrow(broken);
  });
});

describe("key store on an unreachable PostgreSQL", () => {
  it("rejects at open, saying why, with the password redacted", async () => {
    const port = await freePort();
    const password = `pw-${randomBase62(12)}`;
    for (const host of ["127.0.0.1", "localhost"]) {
      const databaseUrl = `postgres://ucs:${password}@${host}:${port}/keys`;
      const failure = await openKeyStore({ dataDir: "/unused", databaseUrl }).then(
        () => new Error("opened"),
        (error: Error) => error,
      );
      expect(failure.message).toMatch(
        `cannot reach or migrate the PostgreSQL key store postgres://ucs:***@${host}:${port}/keys: `,
      );
      expect(failure.message).toContain("ECONNREFUSED");
      expect(failure.message).not.toContain(password);
      expect(JSON.stringify(failure)).not.toContain(password);
    }
    const withQuery = `postgres://127.0.0.1:${port}/keys?sslpassword=${password}`;
    const queried = await openKeyStore({ dataDir: "/unused", databaseUrl: withQuery }).then(
      () => new Error("opened"),
      (error: Error) => error,
    );
    expect(queried.message).toMatch(
      `cannot reach or migrate the PostgreSQL key store postgres://127.0.0.1:${port}/keys?…: `,
    );
    expect(queried.message).not.toContain(password);
    await expect(
      openKeyStore({ dataDir: "/unused", databaseUrl: `mysql://u:${password}@h/db` }),
    ).rejects.toThrow(/^DATABASE_URL must be a postgres:\/\/ URL, not mysql:\/\/…$/);
    await expect(
      openKeyStore({ dataDir: "/unused", databaseUrl: `postgres://u:${password}@[bad` }),
    ).rejects.toThrow(/^DATABASE_URL is not a valid URL/);
  });
});

describe.skipIf(PG_MISSING && !IN_CI)("key store on PostgreSQL", () => {
  storeSuite("postgres", postgresBackend);

  it("survives its server going away: calls reject, the process does not crash", {
    timeout: 60_000,
  }, async () => {
    const server = await startPostgres();
    const store = await openKeyStore({ dataDir: "/unused", databaseUrl: server.url });
    try {
      // Idle pooled connections, which the server's shutdown breaks.
      await Promise.all([store.version(), store.version(), store.create({ name: "x" })]);
      await server.stop();
      await expect(store.version()).rejects.toThrow();
      // An unhandled pool 'error' event would surface as an uncaught exception by now.
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await store.close().catch(() => {});
      await server.stop();
    }
  });
});
