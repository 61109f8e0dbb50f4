import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, sql } from "kysely";
import { Migrator } from "kysely/migration";
import { afterEach, describe, expect, it } from "vitest";
import {
  isSqliteExperimentalWarning,
  loadNodeSqlite,
  NodeSqliteDialect,
  returnsRows,
} from "./node-sqlite-dialect.js";

interface Db {
  t: { id: number; name: string };
}

const dirs: string[] = [];
const dbs: Kysely<Db>[] = [];
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.destroy();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(file = ":memory:"): Kysely<Db> {
  const { DatabaseSync } = loadNodeSqlite();
  const db = new Kysely<Db>({ dialect: new NodeSqliteDialect(new DatabaseSync(file)) });
  dbs.push(db);
  return db;
}

async function withTable(db: Kysely<Db>) {
  await db.schema
    .createTable("t")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .execute();
}

describe("node:sqlite dialect", () => {
  it("decides from the query node whether a statement returns rows", () => {
    const db = open();
    const node = (query: { compile(): { query: Parameters<typeof returnsRows>[0] } }) =>
      returnsRows(query.compile().query);
    expect(node(db.selectFrom("t").selectAll())).toBe(true);
    expect(node(db.insertInto("t").values({ id: 1, name: "a" }))).toBe(false);
    expect(node(db.insertInto("t").values({ id: 1, name: "a" }).returning("id"))).toBe(true);
    expect(node(db.updateTable("t").set({ name: "b" }))).toBe(false);
    expect(node(db.updateTable("t").set({ name: "b" }).returningAll())).toBe(true);
    expect(node(db.deleteFrom("t"))).toBe(false);
    expect(node(db.deleteFrom("t").returning("id"))).toBe(true);
    expect(node(db.schema.createTable("u").addColumn("x", "text"))).toBe(false);
    expect(returnsRows(sql`pragma journal_mode`.compile(db).query)).toBe(true);
  });

  it("runs writes with their counts and reads with their rows", async () => {
    const db = open();
    await withTable(db);
    const inserted = await db
      .insertInto("t")
      .values([
        { id: 1, name: "a" },
        { id: 2, name: "b" },
      ])
      .executeTakeFirst();
    expect(inserted).toMatchObject({ insertId: 2n, numInsertedOrUpdatedRows: 2n });
    expect(
      await db.insertInto("t").values({ id: 3, name: "c" }).returning(["id", "name"]).execute(),
    ).toEqual([{ id: 3, name: "c" }]);
    expect(
      await db.updateTable("t").set({ name: "z" }).where("id", ">", 1).executeTakeFirst(),
    ).toMatchObject({ numUpdatedRows: 2n });
    expect(await db.deleteFrom("t").where("id", "=", 1).executeTakeFirst()).toMatchObject({
      numDeletedRows: 1n,
    });
    expect(await db.selectFrom("t").select(["id", "name"]).orderBy("id").execute()).toEqual([
      { id: 2, name: "z" },
      { id: 3, name: "z" },
    ]);
    // Parameters are bound by position (node:sqlite would read an array as named ones).
    expect(
      await db.selectFrom("t").select("id").where("name", "=", "z").where("id", "<", 3).execute(),
    ).toEqual([{ id: 2 }]);
    expect((await sql<{ x: number }>`select ${7} as x`.execute(db)).rows).toEqual([{ x: 7 }]);
  });

  it("rolls a failed transaction back", async () => {
    const db = open();
    await withTable(db);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("t").values({ id: 1, name: "a" }).execute();
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await db.selectFrom("t").selectAll().execute()).toEqual([]);
  });

  it("runs migrations in one transaction: a failing one leaves nothing applied", async () => {
    const db = open();
    const migrator = new Migrator({
      db,
      provider: {
        getMigrations: async () => ({
          "1": { up: (m) => withTable(m as Kysely<Db>) },
          "2": {
            async up() {
              throw new Error("second fails");
            },
          },
        }),
      },
    });
    const { error } = await migrator.migrateToLatest();
    expect(String(error)).toContain("second fails");
    const tables = (await db.introspection.getTables()).map((table) => table.name);
    expect(tables).not.toContain("t");
  });

  it("takes the write lock when a transaction begins, not at its first write", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ucs-sqlite-"));
    dirs.push(dir);
    const file = join(dir, "x.sqlite");
    const db = open(file);
    await sql`pragma journal_mode = wal`.execute(db);
    await withTable(db);
    // Another process's connection, which does not wait for locks.
    const { DatabaseSync } = loadNodeSqlite();
    const other = new DatabaseSync(file);
    try {
      other.exec("pragma busy_timeout = 0");
      await db.transaction().execute(async (trx) => {
        await trx.selectFrom("t").selectAll().execute();
        // A deferred transaction would hold no write lock yet, and its write below would
        // then fail with SQLITE_BUSY (its snapshot is stale) instead of waiting.
        expect(() => other.exec("insert into t values (9, 'other')")).toThrow(/locked|busy/i);
        await trx.insertInto("t").values({ id: 1, name: "a" }).execute();
      });
      other.exec("insert into t values (9, 'other')");
      expect(await db.selectFrom("t").select("id").orderBy("id").execute()).toEqual([
        { id: 1 },
        { id: 9 },
      ]);
    } finally {
      other.close();
    }
  });

  it("drops only node:sqlite's ExperimentalWarning while loading it", () => {
    const message = "SQLite is an experimental feature and might change at any time";
    expect(isSqliteExperimentalWarning(message, "ExperimentalWarning")).toBe(true);
    expect(isSqliteExperimentalWarning(message, { type: "ExperimentalWarning" })).toBe(true);
    const error = Object.assign(new Error(message), { name: "ExperimentalWarning" });
    expect(isSqliteExperimentalWarning(error, undefined)).toBe(true);
    expect(
      isSqliteExperimentalWarning("WASI is an experimental feature", "ExperimentalWarning"),
    ).toBe(false);
    expect(isSqliteExperimentalWarning(message, "DeprecationWarning")).toBe(false);
    expect(isSqliteExperimentalWarning("something else", undefined)).toBe(false);

    const emitWarning = process.emitWarning;
    loadNodeSqlite();
    expect(process.emitWarning).toBe(emitWarning);
  });
});
