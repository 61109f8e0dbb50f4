/**
 * The managed keys' store: key records, their change counter and their usage,
 * in embedded SQLite under DATA_DIR or in PostgreSQL (DATABASE_URL), through Kysely with one
 * schema and one set of migrations for both. It holds a key's SHA-256 and a display prefix,
 * never the secret: the secret leaves `create` and `roll` once, to the caller.
 *
 * Nothing here is on the request path: the in-process cache reads `changedSince` and the
 * usage recorder batches into `addUsage`.
 */
import { randomBytes } from "node:crypto";
import type { EventEmitter } from "node:events";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Dialect, Kysely, PostgresDialect, type Transaction } from "kysely";
import { type Migration, Migrator } from "kysely/migration";
import { secretDigest } from "../../http/auth.js";
import type { Plan } from "../principal.js";
import { loadNodeSqlite, NodeSqliteDialect } from "./node-sqlite-dialect.js";

export type { Plan };

/** What the cache and the admin API need of a key; never the secret. */
export interface KeyRecord {
  /** Stable and not secret: "key_" + 16 base62. */
  id: string;
  /** Display prefix of the current secret: "ucs_" and its next 8 characters. */
  prefix: string;
  name: string;
  scopes: string[];
  plan: Plan | null;
  /** RFC 3339 (UTC, milliseconds), or null: never. */
  expiresAt: string | null;
  disabled: boolean;
  meta: Record<string, unknown>;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** Hex SHA-256 of the current secret. */
  hash: string;
  /** The secret before the last roll, accepted until `previousValidUntil`. */
  previousHash: string | null;
  previousValidUntil: string | null;
  /** The change counter's value at this record's last change. */
  version: number;
}

export interface NewKey {
  name: string;
  scopes?: string[];
  plan?: Plan | null;
  expiresAt?: string | null;
  meta?: Record<string, unknown>;
}

export interface KeyPatch {
  name?: string;
  scopes?: string[];
  plan?: Plan | null;
  expiresAt?: string | null;
  disabled?: boolean;
  meta?: Record<string, unknown>;
}

/** Usage of one key, one operation, one UTC day. */
export interface UsageRow {
  keyId: string;
  /** YYYY-MM-DD, UTC. */
  date: string;
  operation: string;
  /** Whole numbers (stored as 64-bit integers). */
  calls: number;
  units: number;
}

export interface KeyStore {
  readonly kind: "sqlite" | "postgres";
  /**
   * Creates a key (scopes default ["*"], plan null, no expiry, meta {}). The secret is
   * returned here only; the store keeps its hash and prefix.
   */
  create(input: NewKey): Promise<{ record: KeyRecord; secret: string }>;
  /** The key, or undefined when unknown or revoked. */
  get(id: string): Promise<KeyRecord | undefined>;
  /**
   * One page of the keys not revoked, in (createdAt, id) order. `limit` is capped at
   * {@link MAX_LIST_LIMIT}; pass `nextCursor` back for the next page (null: no more). A
   * cursor this store did not make rejects with {@link InvalidCursorError}.
   */
  list(options: { limit: number; cursor?: string }): Promise<{
    keys: KeyRecord[];
    nextCursor: string | null;
  }>;
  /**
   * Changes the given fields (`plan: null`: the server's default; `expiresAt: null`: never).
   * Undefined when the key is unknown or revoked.
   */
  update(id: string, patch: KeyPatch): Promise<KeyRecord | undefined>;
  /** Revokes: sets revokedAt, keeps the row and its usage. False if unknown or already revoked. */
  revoke(id: string): Promise<boolean>;
  /**
   * Gives the key a new secret (same id, scopes, plan, usage). With `overlapSeconds` > 0 the
   * old secret's hash stays as `previousHash` until `previousValidUntil`; rolling again
   * replaces it. Undefined when the key is unknown or revoked.
   */
  roll(
    id: string,
    overlapSeconds: number,
  ): Promise<{ record: KeyRecord; secret: string } | undefined>;
  /** The change counter: bumped in the same transaction as every key change. */
  version(): Promise<number>;
  /**
   * Every record (revoked included) whose version is above `version`, and the counter to
   * pass next time; changedSince(0) gives all. lastUsedAt is not a change: it moves with
   * usage, and the cache must not reload every key on every usage flush.
   */
  changedSince(version: number): Promise<{ version: number; records: KeyRecord[] }>;
  /**
   * Adds the rows to the usage (calls and units summed per key, day and operation, across
   * calls and processes) and moves each key's lastUsedAt forward to the given time (never
   * back), in one transaction. Rows for ids not in the store (static keys) are kept too.
   */
  addUsage(rows: UsageRow[], lastUsed: ReadonlyMap<string, string>): Promise<void>;
  /** The key's usage from `from` to `to` (YYYY-MM-DD, both included), by date then operation. */
  usage(id: string, from: string, to: string): Promise<UsageRow[]>;
  /** Closes the database (SQLite: its file; PostgreSQL: the pool). */
  close(): Promise<void>;
}

/** The largest page `list` answers. */
export const MAX_LIST_LIMIT = 1000;
/** How long a SQLite write waits for another process's write before failing. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;
/** PostgreSQL: connections per process, and how long connecting and a query may take. */
export const PG_POOL_MAX = 4;
export const PG_CONNECT_TIMEOUT_MS = 5000;
export const PG_QUERY_TIMEOUT_MS = 10_000;
/** Usage rows per INSERT: far below either database's limit on bound parameters. */
const USAGE_CHUNK = 500;

export const SQLITE_FILE = "keys.sqlite";
/** What every managed key begins with (public: it names the kind of key). */
export const SECRET_PREFIX = "ucs_";
const SECRET_LENGTH = 40;
const PREFIX_LENGTH = 8;
const ID_LENGTH = 16;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A `list` cursor this store did not make. */
export class InvalidCursorError extends Error {
  constructor() {
    super("invalid cursor");
    this.name = "InvalidCursorError";
  }
}

/**
 * Hex SHA-256 of a secret: what the store keeps, and the digest the key checker looks a
 * presented key up by (the same function, so the two always agree).
 */
export const hashSecret: (secret: string) => string = secretDigest;

/**
 * `length` base62 characters from crypto.randomBytes, unbiased: bytes ≥ 248 (4 × 62) are
 * dropped rather than folded, which would make the first 8 characters likelier.
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length + 8)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new managed key's secret: "ucs_" + 40 base62 (≈ 238 random bits). */
export function newSecret(): string {
  return SECRET_PREFIX + randomBase62(SECRET_LENGTH);
}

/** The non-secret display prefix of a secret. */
export function prefixOf(secret: string): string {
  return secret.slice(0, SECRET_PREFIX.length + PREFIX_LENGTH);
}

// The schema. Times are RFC 3339 text in UTC with milliseconds (toISOString) on both
// databases: one schema, and text order is time order. Lists and objects are JSON text.
interface KeyTable {
  id: string;
  prefix: string;
  name: string;
  scopes: string;
  plan_limit: number | null;
  plan_window_seconds: number | null;
  expires_at: string | null;
  disabled: number;
  meta: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  hash: string;
  previous_hash: string | null;
  previous_valid_until: string | null;
  // bigint: PostgreSQL's driver reads it as a string.
  version: number | string;
}

interface CounterTable {
  id: number;
  value: number | string;
}

interface UsageTable {
  key_id: string;
  date: string;
  operation: string;
  calls: number | string;
  units: number | string;
}

interface Database {
  api_key: KeyTable;
  api_key_counter: CounterTable;
  api_key_usage: UsageTable;
}

type Db = Kysely<Database>;

/**
 * The migrations, in name order. Never edit one that has shipped: add the next. Each runs
 * in one transaction with the others of its start (both databases have transactional DDL).
 */
export const MIGRATIONS: Record<string, Migration> = {
  "0001_api_keys": {
    // biome-ignore lint/suspicious/noExplicitAny: migrations see the schema as it was then.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("api_key")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("prefix", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("plan_limit", "integer")
        .addColumn("plan_window_seconds", "integer")
        .addColumn("expires_at", "text")
        .addColumn("disabled", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("meta", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("last_used_at", "text")
        .addColumn("revoked_at", "text")
        .addColumn("hash", "text", (c) => c.notNull().unique())
        .addColumn("previous_hash", "text")
        .addColumn("previous_valid_until", "text")
        .addColumn("version", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("api_key_order")
        .on("api_key")
        .columns(["created_at", "id"])
        .execute();
      await db.schema.createIndex("api_key_version").on("api_key").column("version").execute();
      // One row: the change counter. A key change updates it first, which also serialises
      // key changes on PostgreSQL, so versions become visible in order.
      await db.schema
        .createTable("api_key_counter")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("value", "bigint", (c) => c.notNull())
        .execute();
      await db.insertInto("api_key_counter").values({ id: 1, value: 0 }).execute();
      // No foreign key to api_key: static keys (API_KEYS) have usage too.
      await db.schema
        .createTable("api_key_usage")
        .addColumn("key_id", "text", (c) => c.notNull())
        .addColumn("date", "text", (c) => c.notNull())
        .addColumn("operation", "text", (c) => c.notNull())
        .addColumn("calls", "bigint", (c) => c.notNull())
        .addColumn("units", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("api_key_usage_pk", ["key_id", "date", "operation"])
        .execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    async down(db: Kysely<any>) {
      await db.schema.dropTable("api_key_usage").execute();
      await db.schema.dropTable("api_key_counter").execute();
      await db.schema.dropTable("api_key").execute();
    },
  },
};

export interface KeyStoreOptions {
  /** Where the SQLite file lives (created if missing); unused with `databaseUrl`. */
  dataDir: string;
  /** postgres://… : PostgreSQL instead of SQLite. */
  databaseUrl?: string | undefined;
}

/**
 * Opens the store and brings its schema to the latest migration. Rejects with an Error
 * saying why when the database cannot be opened, reached or migrated (a DATABASE_URL in the
 * message shows no password and no query string). Stores opened on one SQLite file in one
 * process share its connection; each is closed on its own.
 */
export async function openKeyStore(options: KeyStoreOptions): Promise<KeyStore> {
  const url = options.databaseUrl?.trim();
  return url ? openPostgres(url) : openSqlite(options.dataDir);
}

/**
 * The SQLite files open in this process. Stores opened on one file share its connection
 * and Kysely's one-query-at-a-time queue: two connections in one thread would each wait
 * synchronously for the other's write lock, which the waiting blocks from being released.
 */
const sqliteOpen = new Map<string, { db: Promise<Db>; stores: number }>();

async function openSqlite(dataDir: string): Promise<KeyStore> {
  const file = join(resolve(dataDir), SQLITE_FILE);
  let entry = sqliteOpen.get(file);
  if (!entry) {
    const opening = connectSqlite(dataDir, file);
    const created = { db: opening, stores: 0 };
    entry = created;
    sqliteOpen.set(file, created);
    opening.catch(() => {
      if (sqliteOpen.get(file) === created) sqliteOpen.delete(file);
    });
  }
  const shared = entry;
  shared.stores++;
  let db: Db;
  try {
    db = await shared.db;
  } catch (error) {
    shared.stores--;
    throw error;
  }
  return new KyselyKeyStore("sqlite", db, async () => {
    if (--shared.stores > 0) return;
    if (sqliteOpen.get(file) === shared) sqliteOpen.delete(file);
    await db.destroy();
  });
}

async function connectSqlite(dataDir: string, file: string): Promise<Db> {
  const where = `the SQLite key store ${file}`;
  let db: import("node:sqlite").DatabaseSync;
  try {
    mkdirSync(resolve(dataDir), { recursive: true });
    const { DatabaseSync } = loadNodeSqlite();
    db = new DatabaseSync(file);
  } catch (error) {
    throw new Error(`cannot open ${where}: ${describe(error)}`);
  }
  try {
    // The busy timeout first: switching to WAL takes a lock another worker may hold. WAL
    // lets every worker read while one writes; the setting stays in the file.
    db.exec(`pragma busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    db.exec("pragma journal_mode = wal");
  } catch (error) {
    db.close();
    throw new Error(`cannot open ${where}: ${describe(error)}`);
  }
  return migrated(new NodeSqliteDialect(db), where, []);
}

async function openPostgres(url: string): Promise<KeyStore> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("DATABASE_URL is not a valid URL (postgres://user:password@host/database)");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new Error(`DATABASE_URL must be a postgres:// URL, not ${parsed.protocol}//…`);
  }
  const secrets = [parsed.password, decodeURIComponentSafe(parsed.password)].filter(Boolean);
  // The query string may carry credentials too (password=, sslpassword=): left out.
  const user = parsed.username ? `${parsed.username}${parsed.password ? ":***" : ""}@` : "";
  const shown = `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}${parsed.search ? "?…" : ""}`;
  const where = `the PostgreSQL key store ${shown}`;
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({
    connectionString: url,
    max: PG_POOL_MAX,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    query_timeout: PG_QUERY_TIMEOUT_MS,
  });
  quietConnectionErrors(pool);
  const db = await migrated(new PostgresDialect({ pool }), where, secrets);
  return new KyselyKeyStore("postgres", db, () => db.destroy());
}

/**
 * A connection that breaks (PostgreSQL stopped or restarted) emits `error`: on the pool
 * while idle, on its client while checked out (between the statements of a transaction,
 * or a poll's). Unheard, either is an uncaught exception that ends the process. The query
 * it cut short rejects, and a broken client leaves the pool when released: callers handle
 * that (docs/keys.md, store faults).
 */
export function quietConnectionErrors(pool: EventEmitter): void {
  pool.on("error", () => {});
  pool.on("connect", (client: EventEmitter) => {
    client.on("error", () => {});
  });
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The Kysely instance, migrated; or a rejection naming `where` and the cause. */
async function migrated(dialect: Dialect, where: string, secrets: string[]): Promise<Db> {
  const db: Db = new Kysely<Database>({ dialect });
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    // Named for this store, should the database hold other tables.
    migrationTableName: "api_key_migration",
    migrationLockTableName: "api_key_migration_lock",
  });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined) {
    await db.destroy().catch(() => {});
    let cause = describe(error);
    for (const secret of secrets) cause = cause.replaceAll(secret, "***");
    throw new Error(`cannot reach or migrate ${where}: ${cause}`);
  }
  return db;
}

/** An error's message; with none (AggregateError of refused connections), its code. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const nested =
    error instanceof AggregateError ? (error.errors[0] as Error | undefined) : undefined;
  const message = error.message || nested?.message || "";
  if (typeof code === "string" && !message.includes(code)) {
    return message ? `${code}: ${message}` : code;
  }
  return message || error.name;
}

/** Thrown inside a transaction to roll it back when the key is unknown or revoked. */
const ABSENT = Symbol("absent");

/** Run `work` in a transaction; undefined when it threw ABSENT (rolled back). */
async function ifPresent<T>(
  db: Db,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T | undefined> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (error === ABSENT) return undefined;
    throw error;
  }
}

/** The next version: the counter bumped inside the caller's transaction. */
async function bump(trx: Transaction<Database>): Promise<number> {
  const row = await trx
    .updateTable("api_key_counter")
    .set((eb) => ({ value: eb("value", "+", 1) }))
    .where("id", "=", 1)
    .returning("value")
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

const iso = (date: Date) => date.toISOString();

/** Normalises an RFC 3339 time to UTC with milliseconds, so stored times compare as text. */
function normalTime(time: string | null | undefined): string | null {
  if (time === null || time === undefined) return null;
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an RFC 3339 time: ${time}`);
  return iso(date);
}

function toRecord(row: KeyTable): KeyRecord {
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    scopes: JSON.parse(row.scopes) as string[],
    plan:
      row.plan_limit === null || row.plan_window_seconds === null
        ? null
        : { limit: Number(row.plan_limit), windowSeconds: Number(row.plan_window_seconds) },
    expiresAt: row.expires_at,
    disabled: Number(row.disabled) !== 0,
    meta: JSON.parse(row.meta) as Record<string, unknown>,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    hash: row.hash,
    previousHash: row.previous_hash,
    previousValidUntil: row.previous_valid_until,
    version: Number(row.version),
  };
}

function encodeCursor(record: KeyRecord): string {
  return Buffer.from(JSON.stringify([record.createdAt, record.id])).toString("base64url");
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string"
    ) {
      return [value[0], value[1]];
    }
  } catch {
    // falls through
  }
  throw new InvalidCursorError();
}

/** Sums rows of the same key, day and operation: one INSERT may not touch a row twice. */
function aggregate(rows: UsageRow[]): UsageRow[] {
  const sums = new Map<string, UsageRow>();
  for (const row of rows) {
    const id = JSON.stringify([row.keyId, row.date, row.operation]);
    const sum = sums.get(id);
    if (sum) {
      sum.calls += row.calls;
      sum.units += row.units;
    } else {
      sums.set(id, { ...row });
    }
  }
  return [...sums.values()];
}

class KyselyKeyStore implements KeyStore {
  constructor(
    readonly kind: KeyStore["kind"],
    private readonly db: Db,
    private readonly release: () => Promise<void>,
  ) {}

  #closed = false;

  async create(input: NewKey): Promise<{ record: KeyRecord; secret: string }> {
    const secret = newSecret();
    const row: Omit<KeyTable, "version"> = {
      id: `key_${randomBase62(ID_LENGTH)}`,
      prefix: prefixOf(secret),
      name: input.name,
      scopes: JSON.stringify(input.scopes ?? ["*"]),
      plan_limit: input.plan?.limit ?? null,
      plan_window_seconds: input.plan?.windowSeconds ?? null,
      expires_at: normalTime(input.expiresAt),
      disabled: 0,
      meta: JSON.stringify(input.meta ?? {}),
      created_at: iso(new Date()),
      last_used_at: null,
      revoked_at: null,
      hash: hashSecret(secret),
      previous_hash: null,
      previous_valid_until: null,
    };
    const version = await this.db.transaction().execute(async (trx) => {
      const next = await bump(trx);
      await trx
        .insertInto("api_key")
        .values({ ...row, version: next })
        .execute();
      return next;
    });
    return { record: toRecord({ ...row, version }), secret };
  }

  async get(id: string): Promise<KeyRecord | undefined> {
    const row = await this.db
      .selectFrom("api_key")
      .selectAll()
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async list(options: { limit: number; cursor?: string }) {
    const limit = Math.min(Math.max(Math.trunc(options.limit) || 1, 1), MAX_LIST_LIMIT);
    let query = this.db
      .selectFrom("api_key")
      .selectAll()
      .where("revoked_at", "is", null)
      .orderBy("created_at")
      .orderBy("id")
      .limit(limit + 1);
    if (options.cursor !== undefined) {
      const [createdAt, id] = decodeCursor(options.cursor);
      query = query.where((eb) =>
        eb.or([
          eb("created_at", ">", createdAt),
          eb.and([eb("created_at", "=", createdAt), eb("id", ">", id)]),
        ]),
      );
    }
    const rows = await query.execute();
    const keys = rows.slice(0, limit).map(toRecord);
    const last = keys.at(-1);
    return { keys, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  async update(id: string, patch: KeyPatch): Promise<KeyRecord | undefined> {
    const set: Partial<KeyTable> = {};
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.scopes !== undefined) set.scopes = JSON.stringify(patch.scopes);
    if (patch.plan !== undefined) {
      set.plan_limit = patch.plan?.limit ?? null;
      set.plan_window_seconds = patch.plan?.windowSeconds ?? null;
    }
    if (patch.expiresAt !== undefined) set.expires_at = normalTime(patch.expiresAt);
    if (patch.disabled !== undefined) set.disabled = patch.disabled ? 1 : 0;
    if (patch.meta !== undefined) set.meta = JSON.stringify(patch.meta);
    if (Object.keys(set).length === 0) return this.get(id);
    return ifPresent(this.db, async (trx) => {
      const version = await bump(trx);
      const row = await trx
        .updateTable("api_key")
        .set({ ...set, version })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw ABSENT;
      return toRecord(row);
    });
  }

  async revoke(id: string): Promise<boolean> {
    const done = await ifPresent(this.db, async (trx) => {
      const version = await bump(trx);
      const result = await trx
        .updateTable("api_key")
        .set({ revoked_at: iso(new Date()), version })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw ABSENT;
      return true;
    });
    return done === true;
  }

  async roll(id: string, overlapSeconds: number) {
    const secret = newSecret();
    const record = await ifPresent(this.db, async (trx) => {
      const version = await bump(trx);
      // After the bump: key changes are serialised, so this hash is still current.
      const current = await trx
        .selectFrom("api_key")
        .select("hash")
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (!current) throw ABSENT;
      const overlap = overlapSeconds > 0;
      const row = await trx
        .updateTable("api_key")
        .set({
          hash: hashSecret(secret),
          prefix: prefixOf(secret),
          previous_hash: overlap ? current.hash : null,
          previous_valid_until: overlap ? iso(new Date(Date.now() + overlapSeconds * 1000)) : null,
          version,
        })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    });
    return record && { record, secret };
  }

  async version(): Promise<number> {
    const row = await this.db
      .selectFrom("api_key_counter")
      .select("value")
      .where("id", "=", 1)
      .executeTakeFirstOrThrow();
    return Number(row.value);
  }

  async changedSince(version: number) {
    // The counter first: every change up to it has committed (they commit in version
    // order), so the records read next include them all; later ones may show up too.
    const current = await this.version();
    const rows = await this.db
      .selectFrom("api_key")
      .selectAll()
      .where("version", ">", version)
      .orderBy("version")
      .execute();
    return { version: current, records: rows.map(toRecord) };
  }

  async addUsage(rows: UsageRow[], lastUsed: ReadonlyMap<string, string>): Promise<void> {
    const sums = aggregate(rows);
    if (sums.length === 0 && lastUsed.size === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (let start = 0; start < sums.length; start += USAGE_CHUNK) {
        const chunk = sums.slice(start, start + USAGE_CHUNK).map((row) => ({
          key_id: row.keyId,
          date: row.date,
          operation: row.operation,
          calls: row.calls,
          units: row.units,
        }));
        await trx
          .insertInto("api_key_usage")
          .values(chunk)
          .onConflict((oc) =>
            oc.columns(["key_id", "date", "operation"]).doUpdateSet((eb) => ({
              calls: eb("api_key_usage.calls", "+", eb.ref("excluded.calls")),
              units: eb("api_key_usage.units", "+", eb.ref("excluded.units")),
            })),
          )
          .execute();
      }
      for (const [id, time] of lastUsed) {
        const at = normalTime(time);
        if (at === null) continue;
        await trx
          .updateTable("api_key")
          .set({ last_used_at: at })
          .where("id", "=", id)
          .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", at)]))
          .execute();
      }
    });
  }

  async usage(id: string, from: string, to: string): Promise<UsageRow[]> {
    const rows = await this.db
      .selectFrom("api_key_usage")
      .selectAll()
      .where("key_id", "=", id)
      .where("date", ">=", from)
      .where("date", "<=", to)
      .orderBy("date")
      .orderBy("operation")
      .execute();
    return rows.map((row) => ({
      keyId: row.key_id,
      date: row.date,
      operation: row.operation,
      calls: Number(row.calls),
      units: Number(row.units),
    }));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.release();
  }
}
