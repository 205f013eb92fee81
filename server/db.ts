/**
 * Knex factory for the two supported databases. SQLite (default) gets WAL + busy_timeout so the
 * web process and a worker can share the file, and foreign keys on; PostgreSQL gets an optional
 * `searchPath` so tests can run inside a throw-away schema.
 */
import fs from 'node:fs';
import path from 'node:path';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { migrationSource } from '../migrations/index.ts';

export interface DbOptions {
  /** SQLite: open every connection read-only (PRAGMA query_only), for a pool of readers. */
  readOnly?: boolean;
  /** postgres://... ; null or undefined = SQLite at `sqliteFile`. */
  databaseUrl?: string | null;
  sqliteFile?: string;
  /** PostgreSQL schema to use (created if missing). */
  searchPath?: string;
  poolMax?: number;
}

/**
 * The database handle as the rest of the server passes it around. Only repositories
 * (`*-repository.ts`) and this file import Knex: everyone else names the handle by these types
 * and calls a repository with it.
 */
export type Db = Knex;
/** A transaction of `Db`, or the handle itself: what a repository function runs its SQL on. */
export type DbOrTx = Knex | Knex.Transaction;
/** A transaction of `Db`. */
export type Tx = Knex.Transaction;

/**
 * Runs `work` in one transaction of `db`: committed when it resolves, rolled back when it
 * throws. The repositories' functions take the transaction in place of the handle.
 */
export function inTransaction<T>(db: Db, work: (trx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(work);
}

/** Names the row type of a query result (knex answers `any` for untyped tables). */
export async function typed<T>(query: PromiseLike<unknown>): Promise<T> {
  return (await query) as T;
}

export type DbClient = 'sqlite' | 'postgres';

export function dbClient(db: Knex): DbClient {
  const client = String((db.client as { config: Knex.Config }).config.client);
  return client === 'pg' ? 'postgres' : 'sqlite';
}

export function createDb(opts: DbOptions): Knex {
  if (opts.databaseUrl) {
    const searchPath = opts.searchPath;
    return knexFactory({
      client: 'pg',
      connection: opts.databaseUrl,
      searchPath: searchPath ? [searchPath] : undefined,
      pool: {
        min: 0,
        max: opts.poolMax ?? 10,
        // The schema must exist before search_path points into it.
        afterCreate: searchPath
          ? (conn: PgConn, done: (err: Error | null, conn: PgConn) => void) => {
              conn.query(`CREATE SCHEMA IF NOT EXISTS "${searchPath.replace(/"/g, '')}"`, (err) =>
                done(err, conn),
              );
            }
          : undefined,
      },
      acquireConnectionTimeout: 10_000,
    });
  }
  const file = opts.sqliteFile;
  if (!file) throw new Error('createDb: sqliteFile is required without databaseUrl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return knexFactory({
    client: 'sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      min: opts.readOnly ? 0 : 1,
      max: opts.poolMax ?? 1,
      afterCreate: (conn: SqliteConn, done: (err: Error | null, conn: SqliteConn) => void) => {
        // cache_size: SQLite's default page cache is 2 MiB, less than the files table's rows
        // for a few thousand files (results JSON make them large), so a date-range search
        // re-read the same pages from the OS on every request; 32 MiB keeps them (a ceiling,
        // filled only as pages are read). The bench's search mix on 10,000 files, per query:
        // ~17 -> ~8 ms without migration 0005's covering index, ~3 ms with it.
        conn.exec(
          'PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; ' +
            'PRAGMA cache_size = -32768;' +
            (opts.readOnly ? ' PRAGMA query_only = ON;' : ''),
          (err) => done(err, conn),
        );
      },
    },
    acquireConnectionTimeout: 10_000,
  });
}

interface PgConn {
  query(sql: string, cb: (err: Error | null) => void): void;
}
interface SqliteConn {
  exec(sql: string, cb: (err: Error | null) => void): void;
}

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

export async function migrateRollback(db: Knex, all = false): Promise<string[]> {
  const [, rolledBack] = (await db.migrate.rollback({ migrationSource }, all)) as [
    number,
    string[],
  ];
  return rolledBack;
}
