/**
 * The files list and the admin search answer with hundreds of positional records. Building
 * them in JavaScript meant one row object per file from the driver, one array per record and a
 * JSON.stringify of the lot: about 1 ms of the server's single thread per 200-file answer, the
 * bulk of what those routes cost under load. Here the database writes the JSON array itself and
 * the route sends the one string. Building each record's JSON when answering was then the bulk
 * of a long search's database time (PostgreSQL's json_build_array), so both
 * databases keep each file's data fields as JSON text, in parts between the URLs (SQLite by
 * migration 0021's triggers, PostgreSQL in 0022's generated columns), and answering only
 * concatenates them with the URLs composed from the id (and, on PostgreSQL, the owner's e-mail).
 *
 * The record is defined once, in file-record.ts, and the stored parts and answers of both
 * databases are generated from it; a test checks that both produce exactly what `fileRecord` /
 * `searchRecord` produce. Timestamps not in the server's own `toISOString()` form (which SQL
 * cannot re-format the way `Date` does) leave the parts NULL and send the caller back to the
 * JavaScript path.
 */
import type { Knex } from 'knex';
import { dbClient } from '../db.ts';
import { PG_STORED, STORED } from './file-record.ts';

export interface RecordJsonOptions {
  /** Append the owner's e-mail: the search record. */
  withOwner: boolean;
  /** The records' order, e.g. `files.created_at desc, files.id desc`. */
  orderBy: string;
}

type Answer = { body: string; odd: number | string | null } | undefined;

/**
 * Runs `query` (files, filtered, no join, no select yet) as one JSON array of records, or
 * returns null when a row's status time is not in canonical form (the caller maps rows then).
 */
export async function recordsJson(
  db: Knex,
  query: Knex.QueryBuilder,
  options: RecordJsonOptions,
): Promise<string | null> {
  const base = query.clone().clearSelect().clearOrder();
  // The records go to the aggregate from an ordered subquery, which walks the index backwards
  // and which both databases feed to the aggregate in that order (the integration test checks
  // the order on hundreds of rows, so a database that stopped doing so would fail it). An
  // aggregate's own ORDER BY sorts its input again instead (SQLite in a temporary B-tree,
  // PostgreSQL before 16 always, comparing the timestamps by collation): that sort cost as much
  // as everything else a long search did.
  // Every stored part is NULL when a timestamp is not canonical, and so is the record then.
  const postgres = dbClient(db) === 'postgres';
  if (postgres && options.withOwner) base.join('users', 'users.id', 'files.user_id');
  const layouts = postgres ? PG_STORED : STORED;
  const record = (options.withOwner ? layouts.search : layouts.list).answerSql;
  const ordered = base.select(db.raw(`${record} as rec`)).orderByRaw(options.orderBy);
  const joined = postgres ? 'string_agg' : 'group_concat';
  const row = await db
    .from(ordered.as('r'))
    .first<Answer>(
      db.raw(`coalesce('[' || ${joined}(rec, ',') || ']', '[]') as body`),
      db.raw('count(*) - count(rec) as odd'),
    );
  if (!row || Number(row.odd ?? 0) > 0) return null;
  return row.body;
}
