/**
 * POST /api/search-results-files (admin only, spec 7): files whose status time lies in
 * [start_date, end_date) (end exclusive: the console sends the picked end + 1 day), whose
 * description contains every keyword and whose location contains the location text, both
 * case-insensitively. One indexed query with the owner joined in (no per-row look-ups).
 */
import { Router } from '@koa/router';
import type { Knex } from 'knex';
import type { AppContext } from '../context.ts';
import { calendarDay } from '../clock.ts';
import { ValidationError } from '../errors.ts';
import { dbClient } from '../db.ts';
import { bodyOf } from '../middleware/body.ts';
import { typed } from '../files/access.ts';
import type { FileRow } from '../files/records.ts';
import { SEARCH_FIELDS, recordColumns, searchRecord } from '../files/file-record.ts';
import { recordsJson } from '../files/record-json.ts';

const MAX_KEYWORDS = 20;

/** Why a search date is refused: missing (both are needed) or not a real day. */
function dayProblem(text: string, which: 'start' | 'end'): string {
  return text === ''
    ? 'Choose a start and end date to run the search.'
    : `The ${which} date must be a real day written YYYY-MM-DD.`;
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

export function searchRoutes(app: AppContext): Router {
  const router = new Router();
  router.post('/api/search-results-files', app.requireAdmin, async (ctx) => {
    const body = bodyOf(ctx);
    const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
    const start = calendarDay(text(body.start_date));
    const end = calendarDay(text(body.end_date));
    const problems: Record<string, string> = {};
    if (!start) problems.start_date = dayProblem(text(body.start_date), 'start');
    if (!end) problems.end_date = dayProblem(text(body.end_date), 'end');
    if (start && end && start > end)
      problems.end_date = 'The start date needs to be before the end date.';
    if (Object.keys(problems).length > 0 || !start || !end) throw ValidationError.of(problems);

    const query = searchQuery(app.readDb, {
      start,
      end,
      keywords: text(body.file_description).split(/\s+/).filter(Boolean).slice(0, MAX_KEYWORDS),
      location: text(body.location),
    });
    const json = await recordsJson(app.readDb, query, {
      withOwner: true,
      orderBy: 'files.status_time desc, files.id desc',
    });
    if (json !== null) {
      ctx.type = 'json';
      ctx.body = json;
      return;
    }
    const rows = await typed<Array<FileRow & { owner_email: string }>>(
      query
        .join('users', 'users.id', 'files.user_id')
        .orderBy([
          { column: 'files.status_time', order: 'desc' },
          { column: 'files.id', order: 'desc' },
        ])
        .select(...recordColumns(SEARCH_FIELDS), 'users.email as owner_email'),
    );
    ctx.body = rows.map((r) => searchRecord(r));
  });
  return router;
}
