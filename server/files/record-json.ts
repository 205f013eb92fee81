/**
 * The files list and the admin search answer with hundreds of positional records. Building
 * them in JavaScript meant one row object per file from the driver, one array per record and a
 * JSON.stringify of the lot: about 1 ms of the server's single thread per 200-file answer, the
 * bulk of what those routes cost under load. Here the database writes the JSON array itself and
 * the route sends the one string: SQLite concatenates the records each file carries (kept by
 * migration 0008's triggers), PostgreSQL builds them with json_agg.
 *
 * `fileRecord` / `searchRecord` in records.ts stay the definition of the record; a test checks
 * that both databases produce exactly what they would. Timestamps not in the server's own
 * `toISOString()` form (which SQL cannot re-format the way `Date` does) send the caller back to
 * the JavaScript path.
 */
import type { Knex } from 'knex';
import { dbClient } from '../db.ts';

export interface RecordJsonOptions {
  /** Append the owner's e-mail: the search record. */
  withOwner: boolean;
  /** ORDER BY inside the aggregate, e.g. `files.created_at desc, files.id desc`. */
  orderBy: string;
}

// `2025-06-01T09:30:00.000Z` -> `2025-06-01T09:30:00.000+00:00` (isoWithOffset's fast path).
const ISO_SHAPE = "'____-__-__T__:__:__.___Z'";
const withOffset = (col: string) => `substr(${col}, 1, length(${col}) - 1) || '+00:00'`;

function recordSql(withOwner: boolean): string {
  const fields = [
    'files.original_name',
    'files.status',
    "CASE WHEN files.media_deleted_at IS NULL THEN '/api/files/' || files.id || '/media' ELSE '' END",
    "'/api/files/' || files.id || '/report.csv'",
    'files.location',
    withOffset('files.status_time'),
  ];
  if (withOwner) fields.push('users.email');
  return fields.join(', ');
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
  let row: Answer;
  if (dbClient(db) === 'postgres') {
    if (options.withOwner) base.join('users', 'users.id', 'files.user_id');
    const odd = `CASE WHEN files.status_time LIKE ${ISO_SHAPE} THEN 0 ELSE 1 END`;
    row = await base.first<Answer>(
      db.raw(
        `coalesce(json_agg(json_build_array(${recordSql(options.withOwner)}) ORDER BY ${options.orderBy}), '[]')::text as body`,
      ),
      db.raw(`sum(${odd}) as odd`),
    );
  } else {
    // SQLite sorts an aggregate's own ORDER BY in a temporary B-tree, which doubled the cost of
    // a long search; an ordered subquery walks the index backwards instead, and SQLite feeds
    // its rows to the aggregate in that order (the integration test checks the order on
    // hundreds of rows, so a SQLite that stopped doing so would fail it).
    const column = options.withOwner ? 'files.search_record' : 'files.list_record';
    const ordered = base.select(db.raw(`${column} as rec`)).orderByRaw(options.orderBy);
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
