/**
 * The files list (the signed-in user's files) and the admin search (spec 7): the queries and
 * the answers they build.
 *
 * Why the database writes the answer: the files list and the admin search answer with hundreds
 * of positional records. Building
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
import { dbClient, typed } from '../db.ts';
import type { FileRow } from './file-row.ts';
import type { FileRecord, SearchRecord } from './file-record.ts';
import {
  LIST_FIELDS,
  PG_STORED,
  SEARCH_FIELDS,
  STORED,
  fileRecord,
  recordColumns,
  searchRecord,
} from './file-record.ts';

/**
 * The user's files, newest upload first, as the JSON text of the list's records (written by the
 * database), or as records built here when a row's timestamp is not canonical.
 */
export async function ownFileRecords(readDb: Knex, userId: number): Promise<string | FileRecord[]> {
  const query = readDb('files').where('files.user_id', userId);
  const json = await recordsJson(readDb, query, {
    withOwner: false,
    orderBy: 'files.created_at desc, files.id desc',
  });
  if (json !== null) return json;
  const rows = await typed<FileRow[]>(
    query
      .orderBy([
        { column: 'files.created_at', order: 'desc' },
        { column: 'files.id', order: 'desc' },
      ])
      .select(recordColumns(LIST_FIELDS)),
  );
  return rows.map((r) => fileRecord(r));
}

/**
 * The files the admin search finds, latest status time first, as the JSON text of the search's
 * records (written by the database), or as records built here when a timestamp is not canonical.
 */
export async function searchRecords(
  readDb: Knex,
  criteria: SearchCriteria,
): Promise<string | SearchRecord[]> {
  const query = searchQuery(readDb, criteria);
  const json = await recordsJson(readDb, query, {
    withOwner: true,
    orderBy: 'files.status_time desc, files.id desc',
  });
  if (json !== null) return json;
  const rows = await typed<Array<FileRow & { owner_email: string }>>(
    query
      .join('users', 'users.id', 'files.user_id')
      .orderBy([
        { column: 'files.status_time', order: 'desc' },
        { column: 'files.id', order: 'desc' },
      ])
      .select(...recordColumns(SEARCH_FIELDS), 'users.email as owner_email'),
  );
  return rows.map((r) => searchRecord(r));
}

/**
 * Whether PostgreSQL's trigram indexes can serve `like '%text%'`: only for text holding a word of
 * three letters or digits. For shorter text ("3" in "hive 3") the index yields every file, and a
 * plan that combined it with another index re-checked thousands of rows. Such text is matched
 * with strpos, which no index serves, so the rows the date range or another word found are
 * filtered instead.
 */
export function trigramIndexable(text: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(text);
}

/** `%`, `_` and the escape character itself are literal in a user's search text. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The SQL condition (and its bindings) for "the file's `column` contains `text`", ignoring case,
 * with `%`, `_` and `\\` literal.
 */
export function containsCondition(
  postgres: boolean,
  column: 'description' | 'location',
  text: string,
): [string, string[]] {
  if (!postgres) return [`files.${column} like ? escape '\\'`, [likePattern(text)]];
  if (trigramIndexable(text)) {
    return [`files.${column}_lower like lower(?) escape '\\'`, [likePattern(text)]];
  }
  return [`strpos(files.${column}_lower, lower(?)) > 0`, [text.toLowerCase()]];
}

export interface SearchCriteria {
  /** First day, `YYYY-MM-DD`. */
  start: string;
  /** Day after the last, `YYYY-MM-DD` (end exclusive). */
  end: string;
  keywords: string[];
  location: string;
}

/** The files the search answers (no join, no select, no order: recordsJson adds those). */
export function searchQuery(readDb: Knex, criteria: SearchCriteria): Knex.QueryBuilder {
  const { start, end, keywords, location } = criteria;
  const query = readDb('files')
    .where('files.status_time', '>=', `${start}T00:00:00.000Z`)
    .andWhere('files.status_time', '<', `${end}T00:00:00.000Z`);
  // Case-insensitive contains. SQLite's LIKE already ignores ASCII case (and its lower() folds
  // nothing else), so lower() on every scanned row only doubled the cost. PostgreSQL matches
  // the files' stored lowercase copies (migration 0023) against the text folded by the same
  // lower() ILIKE would apply to both: ILIKE's results without folding every file, served by
  // trigram indexes where the text has a trigram. On SQLite the location is matched against the
  // few names files have (file_locations, migration 0009), so the index that starts with the
  // location reads only those locations' files.
  const postgres = dbClient(readDb) === 'postgres';
  if (location && postgres) {
    query.andWhereRaw(...containsCondition(postgres, 'location', location));
  } else if (location) {
    query.whereIn(
      'files.location',
      readDb('file_locations')
        .select('location')
        .whereRaw(`location like ? escape '\\'`, [likePattern(location)]),
    );
  }
  for (const word of keywords)
    query.andWhereRaw(...containsCondition(postgres, 'description', word));
  return query;
}

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
