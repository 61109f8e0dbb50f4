/**
 * Kysely on node:sqlite (DatabaseSync): SQLite built into Node, so `npm ci` compiles nothing.
 *
 * Kysely's own SqliteDialect is written against better-sqlite3, whose prepared statements
 * say whether they return rows (`reader`). node:sqlite 22.15 has no such flag (nor
 * `StatementSync.columns()`), and the SQL text alone is a poor guide, so this driver decides
 * from the query node Kysely compiled: a select, or a write with `returning`, returns rows.
 * The compiler and introspector are Kysely's SQLite ones; so is the adapter, but for one flag.
 */
import { createRequire } from "node:module";
import type { DatabaseSync } from "node:sqlite";
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  DeleteQueryNode,
  type Dialect,
  type DialectAdapter,
  type Driver,
  InsertQueryNode,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  RawNode,
  type RootOperationNode,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  UpdateQueryNode,
} from "kysely";

type NodeSqlite = typeof import("node:sqlite");

let nodeSqlite: NodeSqlite | undefined;

/**
 * node:sqlite, loaded once without its ExperimentalWarning: Node prints it on stderr at the
 * first load, which `npm start` and `npm test` must not. Only that warning is dropped, and
 * only during the synchronous require; every other warning goes through.
 */
export function loadNodeSqlite(): NodeSqlite {
  if (nodeSqlite) return nodeSqlite;
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(
    this: unknown,
    warning: string | Error,
    ...rest: unknown[]
  ) {
    if (isSqliteExperimentalWarning(warning, rest[0])) return;
    return Reflect.apply(emitWarning, process, [warning, ...rest]);
  } as typeof process.emitWarning;
  try {
    nodeSqlite = createRequire(import.meta.url)("node:sqlite") as NodeSqlite;
  } finally {
    process.emitWarning = emitWarning;
  }
  return nodeSqlite;
}

export function isSqliteExperimentalWarning(
  warning: string | Error,
  typeOrOptions: unknown,
): boolean {
  const message = typeof warning === "string" ? warning : warning.message;
  const type =
    typeof typeOrOptions === "string"
      ? typeOrOptions
      : typeof warning === "string"
        ? (typeOrOptions as { type?: string } | undefined)?.type
        : warning.name;
  return type === "ExperimentalWarning" && message.startsWith("SQLite ");
}

/**
 * True when the compiled query returns rows: a select, or an insert/update/delete with
 * `returning`. Raw SQL (`sql\`…\``, transaction commands) runs through `all()` too, which
 * executes any statement and returns its rows (for a write: none, and no affected count).
 */
export function returnsRows(node: RootOperationNode): boolean {
  if (SelectQueryNode.is(node) || RawNode.is(node)) return true;
  if (InsertQueryNode.is(node) || UpdateQueryNode.is(node) || DeleteQueryNode.is(node)) {
    return node.returning !== undefined;
  }
  return false;
}

class NodeSqliteConnection implements DatabaseConnection {
  constructor(private readonly db: DatabaseSync) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.db.prepare(compiled.sql);
    // node:sqlite takes parameters as arguments: an array would be read as named ones.
    const parameters = compiled.parameters as Parameters<typeof statement.all>;
    if (returnsRows(compiled.query)) return { rows: statement.all(...parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  // biome-ignore lint/correctness/useYield: Kysely's SQLite driver does not stream either.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("node:sqlite driver: streaming is not supported");
  }
}

class NodeSqliteDriver implements Driver {
  readonly #connection: NodeSqliteConnection;

  constructor(private readonly db: DatabaseSync) {
    this.#connection = new NodeSqliteConnection(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // One connection; Kysely serialises its use (SqliteAdapter: no multiple connections).
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // IMMEDIATE takes the write lock now, under the busy timeout. A deferred transaction
    // that reads and then writes while another process writes fails at once (SQLITE_BUSY)
    // instead of waiting: processes sharing one file would see spurious errors.
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }
}

/**
 * Kysely's SQLite adapter, with transactional DDL: SQLite has it, and without it the
 * Migrator runs migrations outside any transaction and without a lock (SQLite's adapter
 * takes none), so two workers starting on a new file both create the tables, and one
 * fails. In a transaction (BEGIN IMMEDIATE, above) the second waits, then finds the
 * migrations done; a migration that fails leaves nothing half-applied.
 */
export class NodeSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** A Kysely dialect over an open DatabaseSync; destroying the Kysely instance closes it. */
export class NodeSqliteDialect implements Dialect {
  constructor(private readonly db: DatabaseSync) {}

  createDriver(): Driver {
    return new NodeSqliteDriver(this.db);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new NodeSqliteAdapter();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Dialect's own signature.
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
