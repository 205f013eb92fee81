/**
 * The files list and the admin search answer with hundreds of positional records. Building
 * them in JavaScript meant one row object per file from the driver, one array per record and a
 * JSON.stringify of the lot: about 1 ms of the server's single thread per 200-file answer, the
 * bulk of what those routes cost under load. Here the database writes the JSON array itself and
 * the route sends the one string: SQLite concatenates the parts each file carries (data fields
 * only, kept by migration 0021's triggers) with the URLs composed from the id, PostgreSQL builds
 * the records with json_agg.
 *
 * The record is defined once, in file-record.ts, and both SQL forms are generated from it; a
 * test checks that both databases produce exactly what `fileRecord` / `searchRecord` produce.
 * Timestamps not in the server's own `toISOString()` form (which SQL cannot re-format the way
 * `Date` does) send the caller back to the JavaScript path.
 */
import type { Knex } from 'knex';
import { dbClient } from '../db.ts';
import type { RecordField } from './file-record.ts';
import {
  LIST_FIELDS,
  SEARCH_FIELDS,
  STORED,
  canonicalSql,
  jsonBuildArraySql,
} from './file-record.ts';

export interface RecordJsonOptions {
  /** Append the owner's e-mail: the search record. */
  withOwner: boolean;
  /** ORDER BY inside the aggregate, e.g. `files.created_at desc, files.id desc`. */
  orderBy: string;
}

const fieldsFor = (withOwner: boolean): readonly RecordField[] =>
  withOwner ? SEARCH_FIELDS : LIST_FIELDS;

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
  let row: Answer;
  if (dbClient(db) === 'postgres') {
    if (options.withOwner) base.join('users', 'users.id', 'files.user_id');
    const fields = fieldsFor(options.withOwner);
    const record = jsonBuildArraySql(fields, { ownerEmail: 'users.email' });
    const odd = `CASE WHEN ${canonicalSql(fields)} THEN 0 ELSE 1 END`;
    row = await base.first<Answer>(
      db.raw(`coalesce(json_agg(${record} ORDER BY ${options.orderBy}), '[]')::text as body`),
      db.raw(`sum(${odd}) as odd`),
    );
  } else {
    // SQLite sorts an aggregate's own ORDER BY in a temporary B-tree, which doubled the cost of
    // a long search; an ordered subquery walks the index backwards instead, and SQLite feeds
    // its rows to the aggregate in that order (the integration test checks the order on
    // hundreds of rows, so a SQLite that stopped doing so would fail it).
    // Each stored part is NULL when a timestamp is not canonical, and so is the record then.
    const record = (options.withOwner ? STORED.search : STORED.list).answerSql;
    const ordered = base.select(db.raw(`${record} as rec`)).orderByRaw(options.orderBy);
    row = await db
      .from(ordered.as('r'))
      .first<Answer>(
        db.raw(`coalesce('[' || group_concat(rec, ',') || ']', '[]') as body`),
        db.raw('sum(rec IS NULL) as odd'),
      );
  }
  if (!row || Number(row.odd ?? 0) > 0) return null;
  return row.body;
}
